import type { IncomingMessage } from "node:http";
import type { RecordedRequest } from "./scripted-upstream.js";

/**
 * Reads a whole request into what the scripted upstreams record (JSON bodies parsed, else text),
 * with the raw body text for usage figures.
 */
export function readRecordedRequest(
  req: IncomingMessage,
): Promise<{ readonly request: RecordedRequest; readonly text: string }> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on("data", (chunk: Buffer) => parts.push(chunk));
    req.on("error", reject);
    req.on("end", () => {
      const text = Buffer.concat(parts).toString("utf8");
      const request = {
        method: req.method ?? "GET",
        path: req.url ?? "/",
        headers: req.headers,
        body: parseBody(text),
      };
      resolve({ request, text });
    });
  });
}

function parseBody(text: string): unknown {
  if (text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
