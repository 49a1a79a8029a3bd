import { SolError } from "@solserver/core";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { createBodyGate } from "./body-gate.js";
import {
  inspectJson,
  MAX_JSON_DEPTH,
  mayHoldUnstorableText,
  scanJsonShape,
  tooDeep,
  tooManyValues,
} from "./json-inspect.js";

type ParserDone = (error: Error | null, body?: unknown) => void;

/** Bodies from this size on are parsed and handled one at a time (see createBodyGate). */
const LARGE_BODY_BYTES = 64 * 1024;

/**
 * JSON body parsing for every route: an empty body sent as `application/json` (many clients set the
 * header on every POST) counts as no body, so body-less routes such as `POST /v1/actions/:actionId/defer`
 * work, while routes that need a body still answer 400 from their schema. A body nested deeper than
 * MAX_JSON_DEPTH or holding more than `limits.maxValues` values (both found by one scan of the raw
 * text, so such a body is never parsed), or holding text no store can keep (NUL, unpaired surrogates), is a 400 naming the
 * field, before any work starts. Everything else goes through Fastify's own safe JSON parser.
 */
export function allowEmptyJsonBody(app: FastifyInstance, limits: { readonly maxValues: number }): void {
  const parseJson = app.getDefaultJsonParser("error", "error");
  const parse = (req: FastifyRequest, text: string, done: ParserDone) => {
    if (text.trim() === "") return done(null, undefined);
    // Both checks are linear scans of the text; the tree is walked only when an escape may hide
    // unstorable text, so a large body costs about what JSON.parse does (issue 24).
    const shape = scanJsonShape(text, MAX_JSON_DEPTH, limits.maxValues);
    if (shape === "too_deep") return done(tooDeep());
    if (shape === "too_many_values") return done(tooManyValues(limits.maxValues));
    return parseJson(req, text, (error, value) => {
      if (error) return done(jsonError(text));
      const problem = mayHoldUnstorableText(text) ? inspectJson(value) : null;
      return problem ? done(problem) : done(null, value);
    });
  };
  const gate = createBodyGate();
  /** Large bodies wait their turn at the gate; the gate opens again once the request is handed on. */
  const gated =
    (handle: (req: FastifyRequest, body: Buffer, done: ParserDone) => void) =>
    (req: FastifyRequest, body: string | Buffer, done: ParserDone) => {
      const buffer = typeof body === "string" ? Buffer.from(body) : body;
      if (buffer.length < LARGE_BODY_BYTES) return handle(req, buffer, done);
      return gate.run((release) =>
        handle(req, buffer, (error, value) => {
          try {
            done(error, value);
          } finally {
            release();
          }
        }),
      );
    };
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser(
    "application/json",
    { parseAs: "buffer" },
    gated((req, body, done) => {
      const text = asText(body);
      return text === null ? done(notUtf8()) : parse(req, text, done);
    }),
  );
  // Every route takes JSON. A JSON body sent with another type, or none (fetch labels a string body
  // text/plain, curl -d form-urlencoded), is read as JSON; anything else is a 400 that says so.
  app.removeContentTypeParser("text/plain");
  app.addContentTypeParser(
    "*",
    { parseAs: "buffer" },
    gated((req, body, done) => {
      const text = asText(body);
      if (text === null) return done(notUtf8());
      if (text.trim() !== "" && !looksLikeJson(text)) {
        return done(new SolError("invalid_input", "The body must be JSON; send it as application/json."));
      }
      return parse(req, text, done);
    }),
  );
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
