/**
 * Canonical JSON: JSON.stringify semantics (toJSON honoured, undefined and functions dropped from
 * objects and null in arrays, non-finite numbers as null) with object keys sorted by UTF-16 code
 * units at every depth and no whitespace. Equal data always gives equal text whatever its key order
 * (jsonb and clients reorder keys), which is what hashes over stored values need.
 * Throws TypeError for values JSON cannot hold (BigInt, cycles, a bare undefined or function).
 */
export function canonicalJson(value: unknown): string {
  const text = serialise(value, new Set());
  if (text === undefined) throw new TypeError("canonicalJson: the value is not JSON-serialisable");
  return text;
}

function serialise(input: unknown, seen: Set<object>): string | undefined {
  const value =
    typeof input === "object" &&
    input !== null &&
    typeof (input as { toJSON?: unknown }).toJSON === "function"
      ? (input as { toJSON(): unknown }).toJSON()
      : input;
  if (value === null) return "null";
  switch (typeof value) {
    case "string":
    case "boolean":
    case "number":
      return JSON.stringify(value);
    case "bigint":
      throw new TypeError("canonicalJson: BigInt is not JSON data");
    case "object":
      return serialiseObject(value, seen);
    default:
      return undefined;
  }
}

function serialiseObject(value: object, seen: Set<object>): string {
  if (seen.has(value)) throw new TypeError("canonicalJson: the value is cyclic");
  seen.add(value);
  let text: string;
  if (Array.isArray(value)) {
    text = `[${value.map((item) => serialise(item, seen) ?? "null").join(",")}]`;
  } else {
    const record = value as Record<string, unknown>;
    const parts: string[] = [];
    for (const key of Object.keys(record).sort()) {
      const item = serialise(record[key], seen);
      if (item !== undefined) parts.push(`${JSON.stringify(key)}:${item}`);
    }
    text = `{${parts.join(",")}}`;
  }
  seen.delete(value);
  return text;
}
