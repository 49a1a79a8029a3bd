/**
 * `text` cut to at most `max` UTF-16 units, never through a surrogate pair: half an emoji is an
 * unpaired surrogate, which the stores refuse. Unchanged when it fits.
 */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max);
  const last = text.charCodeAt(end - 1);
  // A high surrogate left at the end would lose its low half to the cut.
  if (end > 0 && last >= 0xd800 && last <= 0xdbff) end -= 1;
  return text.slice(0, end);
}

/** `text` cut to at most `max` UTF-16 units, ending with "…" when cut (see `cutText`). */
export function clipText(text: string, max: number): string {
  return text.length <= max ? text : `${cutText(text, Math.max(0, max - 1))}…`;
}
