import { stripAccentsLower } from "../text/accent-fold.js";

const TOKEN = /[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu;
const APOSTROPHES = /['’]/g;
const DIGITS_ONLY = /^\p{N}+$/u;

/** The token standing for any all-digit word in model features, so "3" and "250" share evidence. */
export const NUMBER_TOKEN = "0";

/**
 * The router's normal form: lowercased, accents stripped. Letters Unicode does not decompose (ø, ß)
 * stay as they are, because the shipped model's features were fitted on exactly this form.
 */
export function normalizeText(text: string): string {
  return stripAccentsLower(text);
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
