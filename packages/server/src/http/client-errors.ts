import { STATUS_CODES } from "node:http";
import type { Socket } from "node:net";

/** Node's parser-level failures and the status each answers with (Fastify's own defaults). */
const PARSER_STATUS: Readonly<Record<string, number>> = {
  HPE_HEADER_OVERFLOW: 431,
  ERR_HTTP_REQUEST_TIMEOUT: 408,
};

/**
 * Answers requests Node could not even parse (oversized headers, garbage) in the error model of
 * api.md §2, `{ error: { code, message } }`, instead of Fastify's default body; then closes the socket.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  const status = PARSER_STATUS[error.code ?? ""] ?? 400;
  const code = status === 431 ? "headers_too_large" : status === 408 ? "request_timeout" : "invalid_input";
  const message =
    status === 431
      ? "The request headers (or URL) are larger than the server accepts."
      : status === 408
        ? "The request took too long to arrive."
        : "The request is not valid HTTP.";
  const body = JSON.stringify({ error: { code, message } });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? "Error"}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
