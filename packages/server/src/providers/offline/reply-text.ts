import type { LlmRequestHints } from "@solserver/core";

/** One output line: a free (scrubbable) prefix and text, or verbatim required content after a free prefix. */
interface Line {
  readonly prefix: string;
  readonly text: string;
  readonly fixed: boolean;
}

/**
 * Lays out the offline `assistant_text`: free lines (acknowledgement, notes, footer) are scrubbed of every
 * forbidden phrase; required phrases, section headings and one alternative of each mustHaveAny group are
 * kept verbatim on their own lines. A forbidden phrase inside required content cannot be honoured: the
 * requirement wins and the validator reports the conflict.
 */
export function composeReplyText(
  freeHead: readonly string[],
  freeTail: readonly string[],
  hints: LlmRequestHints | undefined,
): string {
  const forbidden = (hints?.forbiddenPhrases ?? []).filter((f) => f !== "");
  const lines: Line[] = freeHead.map((text) => ({ prefix: "", text, fixed: false }));
  for (const section of nonEmpty(hints?.requiredSections)) {
    lines.push({ prefix: "## ", text: section, fixed: true });
    lines.push({ prefix: "", text: "- Nothing more to add offline.", fixed: false });
  }
  for (const phrase of nonEmpty(hints?.requiredPhrases))
    lines.push({ prefix: "- ", text: phrase, fixed: true });
  for (const group of hints?.mustHaveAny ?? []) {
    const options = nonEmpty(group);
    const pick = options.find((o) => !forbidden.some((f) => containsCi(o, f))) ?? options[0];
    if (pick !== undefined) lines.push({ prefix: "- ", text: pick, fixed: true });
  }
  for (const text of freeTail) lines.push({ prefix: "", text, fixed: false });

  const withPrefixes = render(lines, forbidden, true);
  // A forbidden phrase can straddle a prefix and required text ("# Sec"); drop the decoration then.
  const fixedTexts = lines.filter((l) => l.fixed).map((l) => l.text);
  const leftover = forbidden.some(
    (f) => containsCi(withPrefixes, f) && !fixedTexts.some((t) => containsCi(t, f)),
  );
  return leftover ? render(lines, forbidden, false) : withPrefixes;
}

function render(lines: readonly Line[], forbidden: readonly string[], decorate: boolean): string {
  const out: string[] = [];
  for (const line of lines) {
    const prefix = decorate ? scrub(line.prefix, forbidden) : "";
    const text = line.fixed ? line.text : scrub(line.text, forbidden).trim();
    if (text !== "") out.push(`${prefix}${text}`);
  }
  return out.join("\n");
}

/** Removes every case-insensitive occurrence of each phrase until none is left (removal can join new ones). */
export function scrub(text: string, phrases: readonly string[]): string {
  let current = text;
  for (let changed = true; changed; ) {
    changed = false;
    for (const phrase of phrases) {
      if (!containsCi(current, phrase)) continue;
      const next = current.replace(new RegExp(escapeRegExp(phrase), "giu"), "");
      // Case folding can differ between toLowerCase and the regex; give up on the line rather than loop.
      current = next === current ? "" : next;
      changed = true;
    }
  }
  return current;
}

/** Case-insensitive substring test, the way a validator compares phrases. */
export function containsCi(text: string, phrase: string): boolean {
  return text.toLowerCase().includes(phrase.toLowerCase());
}

function nonEmpty(list: readonly string[] | undefined): string[] {
  return (list ?? []).filter((s) => s.trim() !== "");
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
