import { type LintResult, type ModelOutputEnvelope, SolError, type Violation } from "@solserver/core";
import type { StructuredOutput } from "../structured-output/index.js";

/** The violation of a reply that is not the client's JSON document; strict, so it regenerates once. */
export const STRUCTURED_MISMATCH = "structured_output_mismatch";

/** A structured reply read as the turn's text: the document (when valid), and its violation if not. */
export interface StructuredRead {
  readonly envelope: ModelOutputEnvelope;
  readonly parse: "structured";
  readonly violation?: Violation;
  /** A document is never repaired or read as an envelope: these keep it beside an envelope read. */
  readonly repair?: undefined;
  readonly formatViolation: false;
}

/**
 * Reads a reply to a structured-output turn. The whole reply is the client's document (there is no
 * envelope, so no meta); a mismatch becomes a strict violation whose message is the patch directive.
 */
export function readStructuredReply(text: string, structured: StructuredOutput): StructuredRead {
  const checked = structured.check(text);
  if (checked.ok) {
    return { envelope: { assistant_text: checked.document }, parse: "structured", formatViolation: false };
  }
  return {
    envelope: { assistant_text: text.trim() },
    parse: "structured",
    formatViolation: false,
    violation: {
      code: STRUCTURED_MISMATCH,
      source: "response_format",
      enforcement: "strict",
      message:
        `Answer with exactly one JSON document valid against the requested schema; this one is not: ${checked.issues.join("; ")}`.slice(
          0,
          500,
        ),
    },
  };
}

/** Adds the structured-output violation (if any) to a lint result. */
export function withStructuredViolation(lint: LintResult, read: StructuredRead | null): LintResult {
  if (read?.violation === undefined) return lint;
  return { passed: false, violations: [read.violation, ...lint.violations] };
}

/**
 * After the one regeneration the reply is still not the document: the turn fails with a 502 rather
 * than hand the client text its parser would reject (api.md §3: the content is valid against the schema).
 */
export function throwOnStructuredMismatch(violations: readonly Violation[]): void {
  const mismatch = violations.find((v) => v.code === STRUCTURED_MISMATCH);
  if (mismatch === undefined) return;
  throw new SolError(
    "provider_error",
    "The model's reply did not match the requested response format, also after one regeneration.",
    { details: { reason: "structured_output_invalid", message: mismatch.message } },
  );
}
