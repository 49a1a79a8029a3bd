import { canonicalJson, type Result, sha256Hex } from "@solserver/core";
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import { Ajv2019 } from "ajv/dist/2019.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";

/** A compiled client schema: `null` when the value is valid, else each mismatch as one line. */
export type SchemaCheck = (value: unknown) => readonly string[] | null;

/** Bounds on a client's schema: Ajv compiles schemas to code, so size and nesting are capped. */
const MAX_SCHEMA_CHARS = 64_000;
const MAX_SCHEMA_DEPTH = 40;
const MAX_CACHED = 200;
const MAX_REPORTED = 8;

const cache = new Map<string, SchemaCheck>();
// ajv-formats is CommonJS: under Node's ESM interop the default import is `module.exports`, whose
// `default` is the plugin.
const addFormats = addFormatsModule.default;
(addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule;

function makeAjv(dialect: string | undefined): Ajv {
  // strict: false: schemas from OpenAI-style clients carry keywords Ajv's strict mode refuses.
  const options = { strict: false, allErrors: true, logger: false, validateSchema: true } as const;
  const ajv = dialect?.includes("2020-12")
    ? new Ajv2020(options)
    : dialect?.includes("2019-09")
      ? new Ajv2019(options)
      : new Ajv(options);
  addFormats(ajv);
  return ajv;
}

function depthOf(value: unknown, limit: number): number {
  if (typeof value !== "object" || value === null) return 0;
  if (limit <= 0) return 1;
  let deepest = 0;
  for (const child of Object.values(value)) deepest = Math.max(deepest, depthOf(child, limit - 1));
  return deepest + 1;
}

function describe(errors: readonly ErrorObject[] | null | undefined): string[] {
  return (errors ?? [])
    .slice(0, MAX_REPORTED)
    .map((e) => `${e.instancePath === "" ? "(root)" : e.instancePath} ${e.message ?? "is invalid"}`);
}

/**
 * Compiles a client's JSON Schema (draft-07 by default; 2019-09 and 2020-12 by `$schema`) with Ajv,
 * cached by content. An unusable schema is the client's error: the issue names `field`.
 */
export function compileSchemaCheck(
  schema: Readonly<Record<string, unknown>>,
  field: string,
): Result<SchemaCheck> {
  const text = canonicalJson(schema);
  const key = sha256Hex(text);
  const known = cache.get(key);
  if (known !== undefined) return { ok: true, value: known };
  const bad = (message: string): Result<SchemaCheck> => ({
    ok: false,
    issues: [{ path: field.split("."), message, code: "invalid_schema" }],
  });
  if (text.length > MAX_SCHEMA_CHARS) return bad(`The schema is larger than ${MAX_SCHEMA_CHARS} characters.`);
  if (depthOf(schema, MAX_SCHEMA_DEPTH + 1) > MAX_SCHEMA_DEPTH) {
    return bad(`The schema nests deeper than ${MAX_SCHEMA_DEPTH} levels.`);
  }
  const dialect = typeof schema.$schema === "string" ? schema.$schema : undefined;
  let validate: ValidateFunction;
  try {
    const { $schema: _dialect, ...body } = schema;
    validate = makeAjv(dialect).compile(body);
  } catch (error) {
    return bad(`The schema is not a usable JSON Schema: ${(error as Error).message}`.slice(0, 400));
  }
  const check: SchemaCheck = (value) => (validate(value) ? null : describe(validate.errors));
  if (cache.size >= MAX_CACHED) cache.clear();
  cache.set(key, check);
  return { ok: true, value: check };
}
