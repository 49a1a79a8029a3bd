// Two independent 32-bit string hashes side by side: 64 bits keep accidental collisions in the
// caches negligible without a crypto dependency (core may not import one).

/** A 16-hex-digit hash (64 bits; for cache keys and ids, not security) of a string (FNV-1a and a multiplicative hash, concatenated). */
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
