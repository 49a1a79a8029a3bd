/** Namespaces keep word, bigram, character and concept features from colliding with each other. */
export const FeatureSpace = {
  word: 1,
  bigram: 2,
  char: 3,
  concept: 4,
  cue: 5,
  keyword: 6,
  phrase: 7,
} as const;
export type FeatureSpace = (typeof FeatureSpace)[keyof typeof FeatureSpace];
