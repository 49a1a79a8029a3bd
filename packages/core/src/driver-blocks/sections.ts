/**
 * Required-section detection. A section counts as present when some line, after leading markdown
 * markers (#, >, -, +, *, _, "1." / "1)") are stripped, starts with the section name
 * (case-insensitive) followed by the end of the line, ":", "-", "—", "–" or "(" (closing ** or __
 * allowed first). So "## Facts", "**Facts:**", "Facts: rate is 5%" and "- Facts —" all count;
 * "Facts are stubborn" and "Factsheet" do not.
 */

const LEADING_MARKERS = /^[\s#>*_+-]*(?:\d{1,3}[.)]\s*)?[\s*_]*/;
const AFTER_NAME = /^[*_]*\s*(?:$|[:(\-\u2014\u2013])/;

const TRAILING_MARKS = /[\s*_]*:?[\s*_]*$/;

/**
 * A section name as a reply's line carries it: the markdown markers a line may open with and a
 * trailing colon are not part of it, so "## Summary", "**Facts**" and "Facts:" are "Summary" and "Facts".
 */
export function sectionLabel(section: string): string {
  return section.replace(/\s+/g, " ").trim().replace(LEADING_MARKERS, "").replace(TRAILING_MARKS, "").trim();
}

/** True when `text` contains a heading or label line for `section` (read as its sectionLabel). */
export function hasSection(text: string, section: string): boolean {
  const name = normalizeLine(sectionLabel(section)).trim();
  if (name.length === 0) return false;
  for (const rawLine of text.split(/\r?\n/)) {
    const line = normalizeLine(rawLine).replace(LEADING_MARKERS, "");
    if (!line.startsWith(name)) continue;
    if (AFTER_NAME.test(line.slice(name.length))) return true;
  }
  return false;
}

/** The sections of `sections` that `text` lacks, in the given order. */
export function findMissingSections(text: string, sections: readonly string[]): string[] {
  return sections.filter((section) => !hasSection(text, section));
}

function normalizeLine(line: string): string {
  return line
    .toLowerCase()
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/\s+/g, " ");
}
