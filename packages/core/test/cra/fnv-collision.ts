// Two different strings with the same 64-bit FNV-1a + multiplicative hash (the non-cryptographic
// hashString the checkpoint engine once bound approvals with): a Joux multicollision on the FNV-1a
// half (three-character blocks whose states agree), then a birthday search on the other half.

const FNV_PRIME = 0x01000193;
const fnvStep = (a: number, code: number) => Math.imul(a ^ code, FNV_PRIME) >>> 0;

function otherHalf(text: string): number {
  let b = 0x9e3779b9 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    b = Math.imul(b ^ text.charCodeAt(i), 0x5bd1e995);
    b ^= b >>> 15;
  }
  return b >>> 0;
}

// CJK ideographs: JSON.stringify never escapes them.
const CJK_FIRST = 0x4e00;
const CJK_COUNT = 0x5200;
const isCjk = (code: number) => code >= CJK_FIRST && code < CJK_FIRST + CJK_COUNT;

/** Two strings `s` and `t` such that `prefix + s + suffix` and `prefix + t + suffix` collide. */
export function collidingInfixes(prefix: string, suffix: string, blocks = 20): [string, string] {
  let seed = 1;
  const random = () => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return CJK_FIRST + (seed % CJK_COUNT);
  };
  let a = 0x811c9dc5;
  for (let i = 0; i < prefix.length; i++) a = fnvStep(a, prefix.charCodeAt(i));
  const pairs: [string, string][] = [];
  while (pairs.length < blocks) {
    const byHigh = new Map<number, [number, number, number]>();
    let pair: [string, string] | undefined;
    while (!pair) {
      const c1 = random();
      const c2 = random();
      const state = fnvStep(fnvStep(a, c1), c2);
      const seen = byHigh.get(state >>> 16);
      if (seen && (seen[0] !== c1 || seen[1] !== c2)) {
        const d = (seen[2] ^ state) & 0xffff;
        for (let c3 = CJK_FIRST; c3 < CJK_FIRST + CJK_COUNT && !pair; c3++) {
          if (isCjk(c3 ^ d)) {
            pair = [String.fromCharCode(seen[0], seen[1], c3), String.fromCharCode(c1, c2, c3 ^ d)];
            a = fnvStep(state, c3 ^ d);
          }
        }
      }
      byHigh.set(state >>> 16, [c1, c2, state]);
    }
    pairs.push(pair);
  }
  const seen = new Map<number, string>();
  for (let mask = 0; mask < 2 ** blocks; mask++) {
    const infix = pairs.map((p, k) => p[(mask >> k) & 1]).join("");
    const half = otherHalf(prefix + infix + suffix);
    const other = seen.get(half);
    if (other !== undefined) return [other, infix];
    seen.set(half, infix);
  }
  throw new Error("no collision found");
}
