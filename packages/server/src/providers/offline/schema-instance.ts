/**
 * A minimal instance of a JSON Schema, for the offline provider's structured output: required
 * properties only, the first enum or const value, the fewest array items, numbers at their lower
 * bound. Covers the schemas clients generate (Zod, Pydantic, hand-written): types, required, enums,
 * arrays, nested objects, local `$ref`s, anyOf/oneOf/allOf. Patterns are not solved.
 */
export function schemaInstance(schema: unknown): unknown {
  return instanceOf(schema, schema, 0);
}

type Schema = Readonly<Record<string, unknown>>;

const MAX_DEPTH = 32;
const STRING_FORMATS: Readonly<Record<string, string>> = {
  "date-time": "1970-01-01T00:00:00Z",
  date: "1970-01-01",
  time: "00:00:00Z",
  email: "user@example.com",
  uri: "https://example.com/",
  url: "https://example.com/",
  uuid: "00000000-0000-4000-8000-000000000000",
  ipv4: "127.0.0.1",
  ipv6: "::1",
  hostname: "example.com",
};

function isSchema(value: unknown): value is Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function instanceOf(node: unknown, root: unknown, depth: number): unknown {
  if (!isSchema(node) || depth > MAX_DEPTH) return null;
  if (typeof node.$ref === "string") return instanceOf(resolveRef(node.$ref, root), root, depth + 1);
  if ("const" in node) return node.const;
  if (Array.isArray(node.enum) && node.enum.length > 0) return node.enum[0];
  if ("default" in node && node.default !== undefined) return node.default;
  const choice = firstChoice(node.anyOf) ?? firstChoice(node.oneOf);
  if (choice !== undefined)
    return instanceOf({ ...withoutKeys(node, ["anyOf", "oneOf"]), ...choice }, root, depth + 1);
  if (Array.isArray(node.allOf)) return merged(node, root, depth);
  switch (typeOf(node)) {
    case "object":
      return objectInstance(node, root, depth);
    case "array":
      return arrayInstance(node, root, depth);
    case "string":
      return stringInstance(node);
    case "integer":
      return numberInstance(node, true);
    case "number":
      return numberInstance(node, false);
    case "boolean":
      return false;
    default:
      return null;
  }
}

/** The schema's type: its first non-null one, or guessed from the keywords it uses. */
function typeOf(node: Schema): string | undefined {
  const types = Array.isArray(node.type) ? (node.type as unknown[]) : [node.type];
  const named = types.find((t) => typeof t === "string" && t !== "null") ?? types.find((t) => t === "null");
  if (typeof named === "string") return named;
  if (isSchema(node.properties) || Array.isArray(node.required)) return "object";
  if ("items" in node || "prefixItems" in node) return "array";
  return undefined;
}

/** Resolves a local JSON Pointer reference ("#/$defs/Item", "#/definitions/Item", "#"). */
function resolveRef(ref: string, root: unknown): unknown {
  if (!ref.startsWith("#")) return null;
  let node: unknown = root;
  for (const raw of ref
    .slice(1)
    .split("/")
    .filter((p) => p !== "")) {
    const key = decodeURIComponent(raw).replaceAll("~1", "/").replaceAll("~0", "~");
    node = isSchema(node) ? node[key] : undefined;
  }
  return node ?? null;
}

/** The first option that is not only `null` (a nullable field gets a value), else the first. */
function firstChoice(options: unknown): Schema | undefined {
  if (!Array.isArray(options) || options.length === 0) return undefined;
  const schemas = options.filter(isSchema);
  return schemas.find((o) => o.type !== "null") ?? schemas[0];
}

function withoutKeys(node: Schema, keys: readonly string[]): Schema {
  return Object.fromEntries(Object.entries(node).filter(([k]) => !keys.includes(k)));
}

function merged(node: Schema, root: unknown, depth: number): unknown {
  const parts = [withoutKeys(node, ["allOf"]), ...(node.allOf as unknown[]).filter(isSchema)];
  const values = parts.map((p) => instanceOf(p, root, depth + 1));
  const objects = values.filter((v): v is Record<string, unknown> => isSchema(v));
  return objects.length > 0 ? Object.assign({}, ...objects) : (values.find((v) => v !== null) ?? null);
}

function objectInstance(node: Schema, root: unknown, depth: number): Record<string, unknown> {
  const properties = isSchema(node.properties) ? node.properties : {};
  const required = Array.isArray(node.required) ? node.required.filter((r) => typeof r === "string") : [];
  const out: Record<string, unknown> = {};
  for (const name of required) {
    const extra = isSchema(node.additionalProperties) ? node.additionalProperties : {};
    out[name] = instanceOf(properties[name] ?? extra, root, depth + 1);
  }
  return out;
}

function arrayInstance(node: Schema, root: unknown, depth: number): unknown[] {
  const prefix = Array.isArray(node.prefixItems)
    ? node.prefixItems
    : Array.isArray(node.items)
      ? node.items
      : [];
  const items = Array.isArray(node.items) ? node.additionalItems : node.items;
  const min = typeof node.minItems === "number" ? Math.min(node.minItems, 1_000) : 0;
  const out = prefix.slice(0, Math.max(min, 0)).map((p) => instanceOf(p, root, depth + 1));
  while (out.length < min) out.push(instanceOf(items ?? {}, root, depth + 1));
  return out;
}

function stringInstance(node: Schema): string {
  const base = typeof node.format === "string" ? (STRING_FORMATS[node.format] ?? "") : "";
  const min = typeof node.minLength === "number" ? Math.min(node.minLength, 10_000) : 0;
  return base.length >= min ? base : base + "x".repeat(min - base.length);
}

function numberInstance(node: Schema, integer: boolean): number {
  const num = (key: string) => (typeof node[key] === "number" ? (node[key] as number) : undefined);
  const step = num("multipleOf") ?? (integer ? 1 : undefined);
  const exclusiveMin =
    num("exclusiveMinimum") ?? (node.exclusiveMinimum === true ? num("minimum") : undefined);
  const minimum = exclusiveMin === undefined ? num("minimum") : undefined;
  const maximum = num("maximum") ?? num("exclusiveMaximum");
  let value = minimum ?? (exclusiveMin === undefined ? Math.min(0, maximum ?? 0) : exclusiveMin);
  if (step !== undefined) {
    value = Math.ceil(value / step) * step;
    if (exclusiveMin !== undefined && value <= exclusiveMin) value += step;
  } else if (exclusiveMin !== undefined) value = exclusiveMin + 1;
  if (maximum !== undefined && value > maximum && step === undefined) value = maximum;
  const below = num("exclusiveMaximum");
  if (below !== undefined && value >= below) value = below - (step ?? 1);
  return Object.is(value, -0) ? 0 : value;
}
