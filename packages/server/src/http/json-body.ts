import { SolError } from "@solserver/core";
import type { FastifyInstance, FastifyRequest } from "fastify";

type ParserDone = (error: Error | null, body?: unknown) => void;

/** Deepest nesting a JSON body may have; deeper bodies would overflow recursive hashing and validation. */
export const MAX_JSON_DEPTH = 128;

// Lone surrogates: with the u flag a well-formed pair is one code point and does not match.
const LONE_SURROGATE = /\p{Cs}/u;

/** Text no store keeps faithfully: PostgreSQL refuses NUL; UTF-8 replaces lone surrogates. */
function unstorableText(text: string): boolean {
  return text.includes("\u0000") || LONE_SURROGATE.test(text);
}

/**
 * JSON body parsing for every route: an empty body sent as `application/json` (many clients set the
 * header on every POST) counts as no body, so body-less routes such as `POST /v1/actions/:actionId/defer`
 * work, while routes that need a body still answer 400 from their schema. A body nested deeper than
 * MAX_JSON_DEPTH, or holding text no store can keep (NUL, unpaired surrogates), is a 400 naming the
 * field, before any work starts. Everything else goes through Fastify's own safe JSON parser.
 */
export function allowEmptyJsonBody(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser("error", "error");
  const parse = (req: FastifyRequest, text: string, done: ParserDone) => {
    if (text.trim() === "") return done(null, undefined);
    return parseJson(req, text, (error, value) => {
      if (error) return done(jsonError(text));
      const problem = inspectJson(value);
      return problem ? done(problem) : done(null, value);
    });
  };
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "buffer" }, (req, body, done) => {
    const text = asText(body);
    return text === null ? done(notUtf8()) : parse(req, text, done);
  });
  // Every route takes JSON. A JSON body sent with another type, or none (fetch labels a string body
  // text/plain, curl -d form-urlencoded), is read as JSON; anything else is a 400 that says so.
  app.removeContentTypeParser("text/plain");
  app.addContentTypeParser("*", { parseAs: "buffer" }, (req, body, done) => {
    const text = asText(body);
    if (text === null) return done(notUtf8());
    if (text.trim() !== "" && !looksLikeJson(text)) {
      return done(new SolError("invalid_input", "The body must be JSON; send it as application/json."));
    }
    return parse(req, text, done);
  });
}

/**
 * Why a body the safe parser refused is not usable, in our words (the framework's message blames the
 * content type). Valid JSON is refused only for a prototype-poisoning key.
 */
function jsonError(text: string): SolError {
  try {
    JSON.parse(text);
  } catch (syntax) {
    return new SolError("invalid_input", `The body is not valid JSON: ${(syntax as Error).message}`);
  }
  return new SolError(
    "invalid_input",
    'The JSON body uses a reserved key ("__proto__", or "constructor" holding "prototype"); rename it.',
  );
}

// Fatal: a body that is not UTF-8 (RFC 8259 §8.1) is refused rather than stored with U+FFFD in place
// of the client's bytes. A leading BOM is dropped.
const UTF8 = new TextDecoder("utf-8", { fatal: true });

/** The body as text, or null when its bytes are not valid UTF-8. */
function asText(body: string | Buffer): string | null {
  if (typeof body === "string") return body;
  try {
    return UTF8.decode(body);
  } catch {
    return null;
  }
}

function notUtf8(): SolError {
  return new SolError("invalid_input", "The body is not valid UTF-8; send JSON encoded as UTF-8.");
}

/** A JSON object or array, the only bodies a route takes, starts with one of these. */
function looksLikeJson(text: string): boolean {
  const first = text.trimStart()[0];
  return first === "{" || first === "[";
}

/** Most fields one refusal names; a hostile body could otherwise make the error as large as itself. */
const MAX_UNSTORABLE_FIELDS = 50;

/**
 * Why a parsed body is refused (too deep, or each field holding unstorable text, in document order),
 * found without recursion so hostile input cannot overflow.
 */
export function inspectJson(value: unknown): SolError | null {
  const bad: string[] = [];
  const stack: [unknown, string[]][] = [[value, []]];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const [node, path] = item;
    if (typeof node === "string") {
      if (unstorableText(node)) addField(bad, path);
      continue;
    }
    if (node === null || typeof node !== "object") continue;
    if (path.length >= MAX_JSON_DEPTH) {
      return new SolError(
        "invalid_input",
        `The JSON body is nested more than ${MAX_JSON_DEPTH} levels deep.`,
      );
    }
    const entries = Object.entries(node);
    if (entries.some(([key]) => unstorableText(key))) addField(bad, path);
    // Pushed last to first, so they are visited (and named) in document order.
    for (let i = entries.length - 1; i >= 0; i -= 1) {
      const [key, child] = entries[i] as [string, unknown];
      stack.push([child, [...path, key]]);
    }
  }
  return bad.length > 0 ? unstorable(bad) : null;
}

function addField(bad: string[], path: readonly string[]): void {
  const where = path.length > 0 ? path.join(".") : "body";
  if (bad.length < MAX_UNSTORABLE_FIELDS && !bad.includes(where)) bad.push(where);
}

/** api.md §2: a 400's details name each bad field. */
function unstorable(fields: readonly string[]): SolError {
  return new SolError("invalid_input", `Invalid request: check ${fields.join(", ")}.`, {
    details: fields.map((path) => ({ path, message: "contains a NUL character or an unpaired surrogate" })),
  });
}
