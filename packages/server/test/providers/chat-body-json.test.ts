import { ENVELOPE_SCHEMA_NAME, envelopeJsonSchema, type LlmMessage, type LlmRequest } from "@solserver/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildChatBody, type ChatBodyQuirks, chatBodyJson } from "../../src/providers/openai/chat-body.js";

// The provider sends chatBodyJson; it must be exactly the JSON of buildChatBody, which the other
// provider tests read, however the request looks and whether or not its long texts were seen before.

const text = fc.oneof(
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ unit: "binary", minLength: 1024, maxLength: 1300 }),
);
const role = fc.constantFrom("system", "user", "assistant");
const message: fc.Arbitrary<LlmMessage> = fc.oneof(
  fc.record({ role, content: text }) as fc.Arbitrary<LlmMessage>,
  fc.record({
    role,
    content: text,
    providerMessage: fc.record({ role: fc.constant("tool"), tool_call_id: fc.string(), content: text }),
  }) as fc.Arbitrary<LlmMessage>,
);
const customSchema = fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), {
  maxKeys: 4,
});
const responseFormat = fc.oneof(
  fc.constant(undefined),
  fc.constant({ type: "json_object" as const }),
  fc.record(
    {
      type: fc.constant("json_schema" as const),
      name: fc.constantFrom(ENVELOPE_SCHEMA_NAME, "client_doc"),
      schema: fc.oneof(fc.constant(envelopeJsonSchema()), customSchema),
      strict: fc.boolean(),
    },
    { requiredKeys: ["type", "name", "schema"] },
  ),
);
// Passthrough may name the adapter's own fields (it wins over them) and the reserved ones (ignored).
const passthrough = fc.dictionary(
  fc.constantFrom(
    "response_format",
    "max_tokens",
    "max_completion_tokens",
    "tools",
    "model",
    "stream",
    "user",
    "n",
  ),
  fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constant(undefined)),
  { maxKeys: 4 },
);
const request: fc.Arbitrary<LlmRequest> = fc
  .record(
    {
      messages: fc.array(message, { maxLength: 6 }),
      json: fc.boolean(),
      responseFormat,
      maxOutputTokens: fc.nat(4096),
      temperature: fc.double({ min: 0, max: 2, noNaN: true }),
      passthrough,
    },
    { requiredKeys: ["messages", "json"] },
  )
  .map((r) => ({ purpose: "main", ...r }) as LlmRequest);
const quirks: fc.Arbitrary<ChatBodyQuirks> = fc.record(
  { structuredOutput: fc.constantFrom("json_schema", "json_object", "none"), streamUsage: fc.boolean() },
  { requiredKeys: [] },
);

describe("chatBodyJson", () => {
  it("is JSON.stringify of buildChatBody, the second time too (long texts and the schema are kept)", () => {
    fc.assert(
      fc.property(request, fc.boolean(), quirks, (req, stream, q) => {
        const expected = JSON.stringify(buildChatBody("m-1", req, stream, q));
        expect(chatBodyJson("m-1", req, stream, q)).toBe(expected);
        expect(chatBodyJson("m-1", req, stream, q)).toBe(expected);
      }),
      { numRuns: 300 },
    );
  });

  it("sends the envelope schema and a law that repeat, and a change to either", () => {
    const law = `Law: ${"keep the rules. ".repeat(100)}"quoted" \\ \u2028 end`;
    const req = (content: string): LlmRequest => ({
      purpose: "main",
      json: true,
      messages: [
        { role: "system", content },
        { role: "user", content: "hi" },
      ],
      responseFormat: { type: "json_schema", name: ENVELOPE_SCHEMA_NAME, schema: envelopeJsonSchema() },
    });
    const first = JSON.parse(chatBodyJson("m", req(law), false));
    expect(first.messages[0]).toEqual({ role: "system", content: law });
    expect(first.response_format.json_schema.schema).toEqual(envelopeJsonSchema());
    const changed = `${law.slice(0, -1)}D`;
    expect(JSON.parse(chatBodyJson("m", req(changed), false)).messages[0].content).toBe(changed);
  });
});
