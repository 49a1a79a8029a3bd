import { SolError } from "@solserver/core";

/** Deepest nesting a JSON body may have; deeper bodies would overflow recursive hashing and validation. */
export const MAX_JSON_DEPTH = 128;

// Lone surrogates: with the u flag a well-formed pair is one code point and does not match.
const LONE_SURROGATE = /\p{Cs}/u;

/** Text no store keeps faithfully: PostgreSQL refuses NUL; UTF-8 replaces lone surrogates. */
function unstorableText(text: string): boolean {
  return text.includes("\u0000") || LONE_SURROGATE.test(text);
}

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

const COMMA = 0x2c;

/** What one scan of a body's raw text found wrong with its shape, if anything. */
export type JsonShapeProblem = "too_deep" | "too_many_values";

/**
 * One linear scan of the raw text, before JSON.parse: objects and arrays nested deeper than
 * `maxDepth`, or more than `maxValues` values (commas and openings outside strings, a close upper
 * bound), so a hostile body is refused without building its tree. Brackets and commas inside strings
 * do not count; malformed text is left for the parser to refuse.
 */
export function scanJsonShape(text: string, maxDepth: number, maxValues: number): JsonShapeProblem | null {
  let depth = 0;
  let values = 1;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i += 1;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (c === COMMA) {
      values += 1;
      if (values > maxValues) return "too_many_values";
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      depth += 1;
      values += 1;
      if (depth > maxDepth) return "too_deep";
      if (values > maxValues) return "too_many_values";
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth -= 1;
    }
  }
  return null;
}

/** Whether JSON text nests objects and arrays deeper than `max` (scanJsonShape's depth check alone). */
export function nestedDeeperThan(text: string, max: number): boolean {
  return scanJsonShape(text, max, Number.POSITIVE_INFINITY) === "too_deep";
}

/** The 400 for a body with more values than the server parses in one request. */
export function tooManyValues(maxValues: number): SolError {
  return new SolError(
    "invalid_input",
    `The JSON body holds more than ${maxValues} values; send less per request (SOL_BODY_MAX_VALUES).`,
  );
}

// Decoded UTF-8 (fatal) cannot hold a lone surrogate and JSON strings cannot hold a raw NUL, so
// unstorable text in a parsed body can only come from an escape: `\u0000` or `\uD800`-`\uDFFF`.
// A match is only a hint (`\\u0000` is an escaped backslash); no match rules the walk out.
const UNSTORABLE_ESCAPE = /\\u(?:0000|d[89a-f])/i;

/** Whether a parsed body's text may hold unstorable text, from its raw text (one linear regex scan). */
export function mayHoldUnstorableText(text: string): boolean {
  return UNSTORABLE_ESCAPE.test(text) || unstorableText(text);
}

/** Most fields one refusal names; a hostile body could otherwise make the error as large as itself. */
const MAX_UNSTORABLE_FIELDS = 50;

/** One node of the walk: its key and parent, so a path is built only for a field that is refused. */
interface Frame {
  readonly node: unknown;
  readonly key: string;
  readonly parent: Frame | null;
  readonly depth: number;
}

function pathOf(frame: Frame): string {
  const keys: string[] = [];
  for (let f: Frame | null = frame; f !== null && f.parent !== null; f = f.parent) keys.push(f.key);
  return keys.length > 0 ? keys.reverse().join(".") : "body";
}

/**
 * Why a parsed body is refused (too deep, or each field holding unstorable text, in document order),
 * found without recursion so hostile input cannot overflow. Linear in the body: each node is one
 * frame pointing at its parent; a path is spelled out only for a refused field.
 */
export function inspectJson(value: unknown): SolError | null {
  const bad: string[] = [];
  const stack: Frame[] = [{ node: value, key: "", parent: null, depth: 0 }];
  for (let frame = stack.pop(); frame !== undefined; frame = stack.pop()) {
    const { node, depth } = frame;
    if (typeof node === "string") {
      if (unstorableText(node)) addField(bad, pathOf(frame));
      continue;
    }
    if (node === null || typeof node !== "object") continue;
    if (depth >= MAX_JSON_DEPTH) return tooDeep();
    const keys = Object.keys(node);
    if (keys.some(unstorableText)) addField(bad, pathOf(frame));
    // Pushed last to first, so they are visited (and named) in document order.
    for (let i = keys.length - 1; i >= 0; i -= 1) {
      const key = keys[i] as string;
      const child = (node as Record<string, unknown>)[key];
      stack.push({ node: child, key, parent: frame, depth: depth + 1 });
    }
  }
  return bad.length > 0 ? unstorable(bad) : null;
}

/** The 400 for a body nested deeper than MAX_JSON_DEPTH. */
export function tooDeep(): SolError {
  return new SolError("invalid_input", `The JSON body is nested more than ${MAX_JSON_DEPTH} levels deep.`);
}

function addField(bad: string[], where: string): void {
  if (bad.length < MAX_UNSTORABLE_FIELDS && !bad.includes(where)) bad.push(where);
}

/** api.md §2: a 400's details name each bad field. */
function unstorable(fields: readonly string[]): SolError {
  return new SolError("invalid_input", `Invalid request: check ${fields.join(", ")}.`, {
    details: fields.map((path) => ({ path, message: "contains a NUL character or an unpaired surrogate" })),
  });
}
