import { finalizeHash, hashInSpace, hashPair, hashStart, hashStep } from "../hash/spaced-hash.js";
import { type CueName, detectCues } from "./cues.js";
import { FeatureSpace } from "./feature-space.js";
import { conceptsOf } from "./ontology.js";
import type { TermHit, TermIndex } from "./term-index.js";
import { featureToken, normalizeText, tokenize } from "./text.js";

/** Which feature families the lexical model sees. */
export interface FeatureOptions {
  /** Shortest and longest character n-gram taken inside each padded word. */
  readonly charMin: number;
  readonly charMax: number;
  readonly bigrams: boolean;
  readonly concepts: boolean;
  readonly cues: boolean;
}

export const DEFAULT_FEATURE_OPTIONS: FeatureOptions = {
  charMin: 3,
  charMax: 4,
  bigrams: true,
  concepts: true,
  cues: true,
};

/** Everything the router reads from one text: hashed feature counts plus the evidence behind them. */
export interface TextFeatures {
  /** Feature hash -> occurrence count. */
  readonly counts: Map<number, number>;
  readonly tokens: readonly string[];
  readonly normalized: string;
  readonly cues: readonly CueName[];
  readonly concepts: readonly string[];
  readonly hits: readonly TermHit[];
}

const SPACE = 32;

/** Extracts word, bigram, character n-gram, concept, cue and configured-term features from a text. */
export function extractFeatures(text: string, terms: TermIndex, options: FeatureOptions): TextFeatures {
  const normalized = normalizeText(text);
  const tokens = tokenize(normalized);
  const counts = new Map<number, number>();
  const add = (hash: number) => counts.set(hash, (counts.get(hash) ?? 0) + 1);

  let previous = -1;
  const conceptSet = new Set<string>();
  for (const raw of tokens) {
    const token = featureToken(raw);
    const wordHash = hashInSpace(FeatureSpace.word, token);
    add(wordHash);
    if (options.bigrams && previous !== -1) add(hashPair(FeatureSpace.bigram, previous, wordHash));
    previous = wordHash;
    addCharGrams(token, options, add);
    if (options.concepts) for (const concept of conceptsOf(token)) conceptSet.add(concept);
  }
  const concepts = [...conceptSet];
  for (const concept of concepts) add(hashInSpace(FeatureSpace.concept, concept));
  const cues = options.cues ? detectCues(normalized) : [];
  for (const cue of cues) add(hashInSpace(FeatureSpace.cue, cue));
  const hits = terms.find(tokens, normalized);
  for (const hit of hits) {
    if (hit.kind === "callWord") continue;
    const space = hit.kind === "phrase" ? FeatureSpace.phrase : FeatureSpace.keyword;
    add(hashInSpace(space, String(hit.modeIndex)));
  }
  return { counts, tokens, normalized, cues, concepts, hits };
}

// Character n-grams of " word " (word-bounded), hashed incrementally: no substring is allocated.
function addCharGrams(token: string, options: FeatureOptions, add: (hash: number) => void): void {
  if (options.charMax <= 0) return;
  const length = token.length + 2;
  const codeAt = (i: number) => (i === 0 || i === length - 1 ? SPACE : token.charCodeAt(i - 1));
  for (let start = 0; start < length; start++) {
    let hash = hashStart(FeatureSpace.char);
    for (let n = 1; n <= options.charMax && start + n <= length; n++) {
      hash = hashStep(hash, codeAt(start + n - 1));
      if (n >= options.charMin) add(finalizeHash(hash ^ n));
    }
  }
}
