export { canonicalJson, canonicalJsonOrMarker } from "./canonical-json.js";
export { LONG_TEXT_CHARS, longTextJson } from "./long-text-json.js";
export type { QuotedKeyCache, QuotedKeyCacheOptions } from "./quoted-key-cache.js";
export { createQuotedKeyCache } from "./quoted-key-cache.js";
export { sha256, sha256Hex, utf8ByteLength, utf8Encode } from "./sha256.js";
export { finalizeHash, hashInSpace, hashPair, hashStart, hashStep } from "./spaced-hash.js";
export { hashString } from "./string-hash.js";
export {
  type AnchoredRunBreak,
  checkAnchoredRun,
  findAnchorChainBreak,
  nextTraceAnchor,
  TRACE_ANCHOR_GENESIS_HASH,
  type TraceAnchor,
  traceAnchorHashInput,
} from "./trace-anchor.js";
export { findTraceChainBreak, TRACE_GENESIS_HASH, traceHashInput } from "./trace-chain.js";
