/** Where the formatted lines go (process.stdout, or a test's collector). */
export interface LineSink {
  write(text: string): unknown;
}

const LEVELS: Readonly<Record<number, string>> = {
  10: "TRACE",
  20: "DEBUG",
  30: "INFO ",
  40: "WARN ",
  50: "ERROR",
  60: "FATAL",
};

// Fields shown in the line's fixed part, or not at all (pino's own bookkeeping).
const SKIPPED = new Set([
  "level",
  "time",
  "msg",
  "pid",
  "hostname",
  "traceId",
  "reqId",
  "req",
  "res",
  "responseTime",
  "err",
]);

/**
 * A pino destination for development: each JSON log line becomes one readable line,
 * `12:00:01.234 INFO  [trace 4bf92f35] POST /v1/chat incoming request`, with the request's trace id
 * (Fastify's request id, see traceIdOptions) on every line it logs. Lines that are not JSON pass through unchanged.
 */
export function createPrettyLogStream(out: LineSink): LineSink {
  return {
    write(chunk: string) {
      for (const line of chunk.split("\n")) {
        if (line.trim() !== "") out.write(`${formatLogLine(line)}\n`);
      }
      return true;
    },
  };
}

/** One pino JSON line in the development format. */
export function formatLogLine(line: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  if (entry === null || typeof entry !== "object") return line;
  const parts = [clockTime(entry.time), LEVELS[entry.level as number] ?? String(entry.level)];
  if (typeof entry.traceId === "string") parts.push(`[trace ${entry.traceId.slice(0, 8)}]`);
  parts.push(...requestParts(entry));
  if (typeof entry.msg === "string" && entry.msg !== "") parts.push(entry.msg);
  for (const [key, value] of Object.entries(entry)) {
    if (!SKIPPED.has(key) && value !== undefined) parts.push(`${key}=${inline(value)}`);
  }
  const err = entry.err as { type?: string; message?: string; stack?: string } | undefined;
  const text = parts.join(" ");
  return err?.stack ? `${text}\n    ${err.stack.split("\n").join("\n    ")}` : text;
}

function requestParts(entry: Record<string, unknown>): string[] {
  const req = entry.req as { method?: string; url?: string } | undefined;
  const res = entry.res as { statusCode?: number } | undefined;
  const parts: string[] = [];
  if (req?.method) parts.push(`${req.method} ${req.url ?? ""}`.trim());
  if (res?.statusCode !== undefined) parts.push(String(res.statusCode));
  if (typeof entry.responseTime === "number") parts.push(`${entry.responseTime.toFixed(1)}ms`);
  return parts;
}

function clockTime(time: unknown): string {
  const date = new Date(typeof time === "number" || typeof time === "string" ? time : Date.now());
  return Number.isNaN(date.getTime()) ? "--:--:--.---" : date.toISOString().slice(11, 23);
}

function inline(value: unknown): string {
  if (typeof value === "string") return /\s/.test(value) || value === "" ? JSON.stringify(value) : value;
  return JSON.stringify(value) ?? String(value);
}
