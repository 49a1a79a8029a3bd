import { z } from "zod";
import { deepFreeze } from "../immutable/deep-freeze.js";
import { ModelOutputEnvelope } from "./envelope.js";

/** The name a provider's structured-output feature gives the envelope schema. */
export const ENVELOPE_SCHEMA_NAME = "sol_envelope_v1";

let cached: Readonly<Record<string, unknown>> | undefined;

/**
 * Output envelope v1 (api.md §4) as a JSON Schema (draft 7), for the structured-output features of
 * providers. Derived from the Zod contract so the two cannot drift apart; refinements Zod cannot
 * express (the payload depth limit) are still checked when the reply is parsed. The meta parts stay
 * optional, so the schema is not OpenAI-`strict` (which requires every property): a strict schema
 * would make the model write every meta part on every turn.
 */
export function envelopeJsonSchema(): Readonly<Record<string, unknown>> {
  if (cached === undefined) {
    const { $schema: _dialect, ...schema } = z.toJSONSchema(ModelOutputEnvelope, {
      target: "draft-7",
      io: "input",
      unrepresentable: "any",
    }) as Record<string, unknown>;
    cached = deepFreeze(schema);
  }
  return cached;
}

let cachedText: string | undefined;

/** `JSON.stringify(envelopeJsonSchema())`, made once: the schema is deep-frozen and sent on every call. */
export function envelopeJsonSchemaText(): string {
  cachedText ??= JSON.stringify(envelopeJsonSchema());
  return cachedText;
}
