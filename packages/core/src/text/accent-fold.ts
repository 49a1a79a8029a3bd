// Combining marks left by NFKD decomposition; removing them folds "café" into "cafe".
const COMBINING_MARKS = /[\u0300-\u036f]/g;

/** Lowercase Latin letters that NFKD leaves whole (a stroke or a ligature), with their base letters. */
const UNDECOMPOSED_LETTERS: Readonly<Record<string, string>> = Object.freeze({
  "\u00df": "ss", // ß
  "\u00e6": "ae", // æ
  "\u0153": "oe", // œ
  "\u00f8": "o", // ø
  "\u0142": "l", // ł
  "\u0111": "d", // đ
  "\u00f0": "d", // ð
  "\u00fe": "th", // þ
  "\u0131": "i", // ı
  "\u0127": "h", // ħ
});
const UNDECOMPOSED = /[\u00df\u00e6\u0153\u00f8\u0142\u0111\u00f0\u00fe\u0131\u0127]/g;

/**
 * Lowercases and drops the combining marks NFKD leaves ("Café" -> "cafe"); letters Unicode does not
 * decompose stay as they are ("Øl" -> "øl"). See `foldAccentsLower` for the fuller fold.
 */
export function stripAccentsLower(text: string): string {
  return text.normalize("NFKD").replace(COMBINING_MARKS, "").toLowerCase();
}

/**
 * Lowercases and folds accented Latin letters to their base letter ("Ölfass" -> "olfass"), also
 * those Unicode does not decompose ("Øl" -> "ol", "Straße" -> "strasse").
 */
export function foldAccentsLower(text: string): string {
  return stripAccentsLower(text).replace(UNDECOMPOSED, (ch) => UNDECOMPOSED_LETTERS[ch] ?? ch);
}
