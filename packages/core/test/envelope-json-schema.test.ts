import { EnvelopeShape, envelopeJsonSchema, ModelOutputEnvelope } from "@solserver/core";
import { describe, expect, it } from "vitest";

type Schema = { properties: Record<string, Schema>; required?: string[]; additionalProperties?: unknown };

describe("envelopeJsonSchema", () => {
  it("is the envelope v1 contract as JSON Schema: assistant_text required, every meta part optional", () => {
    const schema = envelopeJsonSchema() as unknown as Schema;
    expect(schema).not.toHaveProperty("$schema");
    expect(schema.required).toEqual(["assistant_text"]);
    expect(schema.additionalProperties).toBe(false);
    const meta = schema.properties.meta as Schema;
    expect(Object.keys(meta.properties)).toEqual(Object.keys(ModelOutputEnvelope.shape.meta.unwrap().shape));
    expect(meta.required ?? []).toEqual([]);
    expect((meta.properties.shape as Schema).required).toEqual(Object.keys(EnvelopeShape.shape));
  });

  it("is built once and frozen, so no caller can change what the next turn asks for", () => {
    const schema = envelopeJsonSchema();
    expect(envelopeJsonSchema()).toBe(schema);
    expect(Object.isFrozen(schema)).toBe(true);
    expect(Object.isFrozen((schema as unknown as Schema).properties.meta)).toBe(true);
  });
});
