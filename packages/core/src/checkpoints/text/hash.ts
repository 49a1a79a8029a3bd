// Two independent 32-bit string hashes side by side: 64 bits keep accidental collisions in the
// caches negligible without a crypto dependency (core may not import one).

/** A 16-hex-digit hash of a string (FNV-1a and a multiplicative hash, concatenated). */
export function hashString(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x9e3779b9 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  b = Math.imul(b ^ (b >>> 13), 0xc2b2ae35);
  b ^= b >>> 16;
  return (a >>> 0).toString(16).padStart(8, "0") + (b >>> 0).toString(16).padStart(8, "0");
}

/** JSON with object keys sorted, so equal values always serialize (and hash) the same. */
export function canonicalJson(value: unknown): string {
  try {
    return JSON.stringify(sortKeys(value, 0)) ?? "null";
  } catch {
    // Cycles and BigInt cannot come from JSON input; keep hashing total rather than throwing.
    return '"[unserializable]"';
  }
}

function sortKeys(value: unknown, depth: number): unknown {
  if (depth > 64 || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((item) => sortKeys(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    out[key] = sortKeys((value as Record<string, unknown>)[key], depth + 1);
  }
  return out;
}
