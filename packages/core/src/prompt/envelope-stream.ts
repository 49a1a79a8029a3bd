/**
 * Keys a model uses for the reply text instead of `assistant_text`. The repair reads them the same way
 * (repair-output.ts), so what streams is what the repaired envelope holds.
 */
export const ASSISTANT_TEXT_ALIASES: readonly string[] = Object.freeze([
  "assistant_text",
  "assistantText",
  "assistant",
  "text",
  "reply",
  "response",
  "answer",
  "content",
  "message",
  "output",
]);

/** How the stream is being read so far. */
export type EnvelopeStreamMode = "pending" | "json" | "plain";

/** An incremental reader of a streamed envelope (createEnvelopeStreamParser). */
export interface EnvelopeStreamParser {
  /** Feeds the next chunk of model output; returns the reply text it completed (may be ""). */
  push(chunk: string): string;
  /** Ends the stream; returns the reply text still held (a plain-text reply's last characters). */
  end(): string;
  /** "json" once the output opened an object, "plain" when it is not JSON, "pending" before either. */
  readonly mode: EnvelopeStreamMode;
}

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = Object.freeze({
  '"': '"',
  "\\": "\\",
  "/": "/",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
});

/** Longest opening a JSON reply may have before its `{`: a code fence with a language tag. */
const MAX_OPENING = 16;

/**
 * Reads the reply text out of a streamed output envelope as it arrives: the decoded characters of the
 * top-level `assistant_text` string (or its first alias key when `assistant_text` has not been seen),
 * whatever the order of keys, with escapes (`\uXXXX` and surrogate pairs included) split anywhere
 * across chunks. Output that does not open with `{` (after whitespace or a code fence) is plain text and
 * passes through. The whole-reply parse (parseModelOutput) stays the authority: a host compares its
 * text with what streamed.
 */
export function createEnvelopeStreamParser(): EnvelopeStreamParser {
  let mode: EnvelopeStreamMode = "pending";
  let opening = "";
  const json = createJsonTextReader();
  const decide = (): string => {
    const trimmed = opening.trimStart();
    if (trimmed.startsWith("{")) {
      mode = "json";
      return json.push(trimmed);
    }
    const fence = /^```[a-zA-Z]*[ \t]*\r?\n\s*/.exec(trimmed);
    if (fence !== null && trimmed.length > fence[0].length) {
      const rest = trimmed.slice(fence[0].length);
      if (rest.startsWith("{")) {
        mode = "json";
        return json.push(rest);
      }
    }
    if (couldStillOpenJson(trimmed)) return "";
    mode = "plain";
    return opening;
  };
  return {
    get mode() {
      return mode;
    },
    push(chunk) {
      if (mode === "json") return json.push(chunk);
      if (mode === "plain") return chunk;
      opening += chunk;
      return decide();
    },
    end() {
      if (mode !== "pending") return "";
      mode = "plain";
      return opening;
    },
  };
}

function couldStillOpenJson(trimmed: string): boolean {
  if (trimmed === "") return true;
  if (trimmed.length > MAX_OPENING) return false;
  if ("```".startsWith(trimmed)) return true;
  return /^```[a-zA-Z]*[ \t]*(\r?\n\s*)?$/.test(trimmed);
}

type Frame = "object" | "array";

/**
 * A JSON tokenizer that only decodes one string: the value of the chosen top-level key. It keeps the
 * nesting (objects, arrays, strings) so keys of nested objects are never mistaken for it.
 */
function createJsonTextReader(): { push(chunk: string): string } {
  const stack: Frame[] = [];
  let inString = false;
  let stringIsKey = false;
  let escaping = false;
  let hex: string | null = null;
  let key = "";
  let lastKey = "";
  let expectingKey = false;
  let capturing = false;
  let captured = false;
  let pendingHigh = "";
  let out: string[] = [];

  const emit = (text: string) => {
    if (stringIsKey) {
      key += text;
      return;
    }
    if (!capturing || text === "") return;
    let piece = pendingHigh + text;
    pendingHigh = "";
    const last = piece.charCodeAt(piece.length - 1);
    // Hold a lone high surrogate: its low half (maybe an escape in the next chunk) completes it.
    if (last >= 0xd800 && last <= 0xdbff) {
      pendingHigh = piece.slice(-1);
      piece = piece.slice(0, -1);
    }
    if (piece !== "") out.push(piece);
  };

  const readEscaped = (ch: string): void => {
    if (hex !== null) {
      hex += ch;
      if (hex.length < 4) return;
      const code = Number.parseInt(hex, 16);
      hex = null;
      escaping = false;
      if (!Number.isNaN(code)) emit(String.fromCharCode(code));
      return;
    }
    if (ch === "u") {
      hex = "";
      return;
    }
    escaping = false;
    emit(SIMPLE_ESCAPES[ch] ?? ch);
  };

  const closeString = () => {
    inString = false;
    if (stringIsKey) {
      lastKey = key;
      key = "";
      stringIsKey = false;
      return;
    }
    capturing = false;
  };

  const structural = (ch: string) => {
    if (ch === '"') {
      inString = true;
      stringIsKey = stack[stack.length - 1] === "object" && expectingKey;
      expectingKey = false;
      // Only the first top-level text key streams; the whole-reply parse settles any other layout.
      if (!stringIsKey && stack.length === 1 && !captured && ASSISTANT_TEXT_ALIASES.includes(lastKey)) {
        captured = true;
        capturing = true;
      }
    } else if (ch === "{") {
      stack.push("object");
      expectingKey = true;
    } else if (ch === "[") {
      stack.push("array");
    } else if (ch === "}" || ch === "]") {
      stack.pop();
      expectingKey = false;
    } else if (ch === ",") {
      expectingKey = stack[stack.length - 1] === "object";
    }
  };

  return {
    push(chunk) {
      out = [];
      let runStart = -1;
      const flushRun = (end: number) => {
        if (runStart >= 0) emit(chunk.slice(runStart, end));
        runStart = -1;
      };
      for (let i = 0; i < chunk.length; i++) {
        const ch = chunk.charAt(i);
        if (!inString) structural(ch);
        else if (escaping) readEscaped(ch);
        else if (ch === "\\") {
          flushRun(i);
          escaping = true;
        } else if (ch === '"') {
          flushRun(i);
          closeString();
        } else if (runStart < 0) runStart = i;
      }
      flushRun(chunk.length);
      return out.join("");
    },
  };
}
