/** A seeded pseudo-random source in [0, 1) (mulberry32): same seed, same sequence. */
export type Random = () => number;

/** Creates a mulberry32 generator from a 32-bit seed. */
export function createRandom(seed: number): Random {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
