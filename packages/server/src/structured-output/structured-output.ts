import type { LlmResponseFormat, Result } from "@solserver/core";
import { compileSchemaCheck } from "./schema-check.js";

/** Outcome of checking a reply against the requested format: the document, or what is wrong. */
export type DocumentCheck =
  | { readonly ok: true; readonly document: string }
  | { readonly ok: false; readonly issues: readonly string[] };

/** A turn's structured output: the format asked of the provider and the check of its reply. */
export interface StructuredOutput {
  readonly format: LlmResponseFormat;
  check(text: string): DocumentCheck;
  /** The prompt line that asks for the document instead of the output envelope. */
  readonly instruction: string;
}

/** A client's format as the facades accept it (Chat Completions `response_format`, Responses `text.format`). */
export type ClientFormat =
  | { readonly type: "text" }
  | { readonly type: "json_object" }
  | {
      readonly type: "json_schema";
      readonly name: string;
      readonly schema?: Readonly<Record<string, unknown>> | undefined;
      readonly strict?: boolean | null | undefined;
      readonly description?: string | undefined;
    };

const FENCE = /^```(?:json)?\s*\n([\s\S]*?)\n?```$/;

/** The reply as one JSON document: the whole text, or the inside of a single ```json fence. */
export function readJsonDocument(text: string): { readonly text: string; readonly value: unknown } | null {
  const trimmed = text.trim();
  const inner = FENCE.exec(trimmed)?.[1]?.trim() ?? trimmed;
  try {
    return { text: inner, value: JSON.parse(inner) };
  } catch {
    return null;
  }
}

/**
 * The structured output of a facade request, or undefined for plain text. A schema Ajv cannot
 * compile is the client's 400 (the issue names `field`).
 */
export function structuredOutputOf(
  format: ClientFormat | null | undefined,
  field: string,
): Result<StructuredOutput | undefined> {
  if (format == null || format.type === "text") return { ok: true, value: undefined };
  if (format.type === "json_object") {
    return {
      ok: true,
      value: {
        format: { type: "json_object" },
        instruction:
          "Structured output: instead of the output envelope, answer with exactly one JSON object (no prose, no code fence); it is the whole reply the user receives.",
        check(text) {
          const doc = readJsonDocument(text);
          if (doc === null) return { ok: false, issues: ["The reply is not valid JSON."] };
          const isObject = typeof doc.value === "object" && doc.value !== null && !Array.isArray(doc.value);
          return isObject
            ? { ok: true, document: doc.text }
            : { ok: false, issues: ["(root) must be object"] };
        },
      },
    };
  }
  const schema = format.schema ?? {};
  const compiled = compileSchemaCheck(schema, `${field}.schema`);
  if (!compiled.ok) return compiled;
  const validate = compiled.value;
  return {
    ok: true,
    value: {
      format: {
        type: "json_schema",
        name: format.name,
        schema,
        ...(format.strict == null ? {} : { strict: format.strict }),
      },
      instruction: `Structured output: instead of the output envelope, answer with exactly one JSON document (no prose, no code fence) valid against this JSON Schema${format.description ? ` (${format.description})` : ""}; it is the whole reply the user receives.\n${JSON.stringify(schema)}`,
      check(text) {
        const doc = readJsonDocument(text);
        if (doc === null) return { ok: false, issues: ["The reply is not valid JSON."] };
        const issues = validate(doc.value);
        return issues === null ? { ok: true, document: doc.text } : { ok: false, issues };
      },
    },
  };
}
