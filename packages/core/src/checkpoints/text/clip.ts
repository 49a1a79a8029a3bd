/**
 * `text` cut to at most `max` UTF-16 units, ending with "…" when cut. The cut never splits a surrogate
 * pair: half an emoji is an unpaired surrogate, which the stores refuse.
 */
export function clipText(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max - 1);
  const last = text.charCodeAt(end - 1);
  // A high surrogate left at the end would lose its low half to the cut.
  if (end > 0 && last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}…`;
}
