// Combining marks left by NFKD decomposition.
const COMBINING_MARKS = /[\u0300-\u036f]/g;

/** Lowercases and folds accented Latin letters to their base letter ("Ölfass" -> "olfass"). */
export function foldAccentsLower(text: string): string {
  return text.normalize("NFKD").replace(COMBINING_MARKS, "").toLowerCase();
}
