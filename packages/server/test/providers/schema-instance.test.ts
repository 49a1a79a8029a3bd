import { describe, expect, it } from "vitest";
import { schemaInstance } from "../../src/providers/offline/schema-instance.js";
import { compileSchemaCheck } from "../../src/structured-output/index.js";

/** Each schema's minimal instance must pass Ajv's check of the same schema. */
const SCHEMAS: Record<string, Record<string, unknown>> = {
  "types and required": {
    type: "object",
    properties: {
      name: { type: "string", minLength: 3 },
      count: { type: "integer", minimum: 2 },
      ratio: { type: "number", exclusiveMinimum: 0, maximum: 1 },
      ok: { type: "boolean" },
      optional: { type: "string" },
    },
    required: ["name", "count", "ratio", "ok"],
    additionalProperties: false,
  },
  "enums, const, nullable": {
    type: "object",
    properties: {
      kind: { type: "string", enum: ["beach", "city"] },
      version: { const: 2 },
      note: { type: ["string", "null"] },
      maybe: { anyOf: [{ type: "null" }, { type: "number", minimum: 5 }] },
    },
    required: ["kind", "version", "note", "maybe"],
  },
  "arrays and nested objects": {
    type: "object",
    properties: {
      stops: {
        type: "array",
        minItems: 2,
        items: {
          type: "object",
          properties: { at: { type: "string", format: "date-time" } },
          required: ["at"],
        },
      },
      pair: { type: "array", prefixItems: [{ type: "string" }, { type: "integer" }], minItems: 2 },
    },
    required: ["stops", "pair"],
  },
  "$refs (Zod and Pydantic style)": {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    type: "object",
    properties: {
      item: { $ref: "#/$defs/Item" },
      more: { type: "array", items: { $ref: "#/$defs/Item" }, minItems: 1 },
    },
    required: ["item", "more"],
    $defs: {
      Item: { type: "object", properties: { id: { type: "string", format: "uuid" } }, required: ["id"] },
    },
  },
  "allOf and multipleOf": {
    allOf: [
      { type: "object", properties: { a: { type: "integer", multipleOf: 5, minimum: 7 } }, required: ["a"] },
      { type: "object", properties: { b: { type: "string", format: "email" } }, required: ["b"] },
    ],
  },
};

describe("offline schema instances", () => {
  for (const [name, schema] of Object.entries(SCHEMAS)) {
    it(`are valid for ${name}`, () => {
      const check = compileSchemaCheck(schema, "schema");
      if (!check.ok) throw new Error(JSON.stringify(check.issues));
      const instance = schemaInstance(schema);
      expect(check.value(instance)).toBeNull();
    });
  }

  it("the check is not a rubber stamp: an empty object fails a schema with required fields", () => {
    const check = compileSchemaCheck(SCHEMAS["types and required"] ?? {}, "schema");
    if (!check.ok) throw new Error("did not compile");
    expect(check.value({})?.length).toBeGreaterThan(0);
  });

  it("refuses a schema Ajv cannot compile, naming the field", () => {
    const bad = compileSchemaCheck({ type: "object", properties: { a: { type: 12 } } }, "text.format");
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.issues[0]?.path).toEqual(["text", "format"]);
  });
});
