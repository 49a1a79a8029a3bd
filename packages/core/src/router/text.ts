// Combining marks left behind by NFKD; removing them folds "café" into "cafe".
const COMBINING_MARKS = /[\u0300-\u036f]/g;
const TOKEN = /[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu;
const APOSTROPHES = /['’]/g;
const DIGITS_ONLY = /^\p{N}+$/u;

/** The token standing for any all-digit word in model features, so "3" and "250" share evidence. */
export const NUMBER_TOKEN = "0";

/** Lowercases and strips accents so matching ignores case and diacritics. */
export function normalizeText(text: string): string {
  return text.normalize("NFKD").replace(COMBINING_MARKS, "").toLowerCase();
}

/** Splits normalized text into word tokens; apostrophes are dropped ("don't" -> "dont"). */
export function tokenize(normalized: string): string[] {
  const words = normalized.match(TOKEN) ?? [];
  return words.map((word) => word.replace(APOSTROPHES, ""));
}

/** The form a token takes in model features: all-digit tokens collapse to NUMBER_TOKEN. */
export function featureToken(token: string): string {
  return DIGITS_ONLY.test(token) ? NUMBER_TOKEN : token;
}

/** Normalizes a keyword or phrase to a space-joined token string, the form matchers compare. */
export function canonicalPhrase(text: string): string {
  return tokenize(normalizeText(text)).join(" ");
}
