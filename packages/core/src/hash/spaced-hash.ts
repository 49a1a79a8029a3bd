// 32-bit FNV-1a over UTF-16 code units in a numeric namespace, with an avalanche finish: fast,
// allocation-free and identical on every JS engine, so ids built from it (the router's feature ids,
// and therefore its fitted model) are deterministic without building n-gram strings.
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** Starts a hash in a namespace. */
export function hashStart(space: number): number {
  return Math.imul(FNV_OFFSET ^ space, FNV_PRIME) >>> 0;
}

/** Feeds one UTF-16 code unit into a running hash. */
export function hashStep(hash: number, code: number): number {
  return Math.imul(hash ^ code, FNV_PRIME) >>> 0;
}

/** Hashes a whole string in a namespace. */
export function hashInSpace(space: number, text: string): number {
  let hash = hashStart(space);
  for (let i = 0; i < text.length; i++) hash = hashStep(hash, text.charCodeAt(i));
  return finalizeHash(hash);
}

/** Combines two hashes (order matters), for word bigrams. */
export function hashPair(space: number, first: number, second: number): number {
  let hash = hashStart(space);
  hash = hashStep(hash, first & 0xffff);
  hash = hashStep(hash, first >>> 16);
  hash = hashStep(hash, second & 0xffff);
  hash = hashStep(hash, second >>> 16);
  return finalizeHash(hash);
}

/** Avalanche step so nearby inputs spread over the whole 32-bit range. */
export function finalizeHash(hash: number): number {
  let h = hash;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
