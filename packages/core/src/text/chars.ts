/** True for whitespace that is not a line break (the contract's `[^\S\n]`; `\r` counts as a break). */
export function isHorizontalSpace(ch: string | undefined): boolean {
  if (ch === undefined || ch.length === 0) return false;
  const code = ch.charCodeAt(0);
  return (
    code === 0x20 ||
    code === 0x09 ||
    code === 0x0b ||
    code === 0x0c ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/** True for a line break character: `\n`, `\r`, or the Unicode line/paragraph separators. */
export function isLineBreak(ch: string | undefined): boolean {
  return ch === "\n" || ch === "\r" || ch === "\u2028" || ch === "\u2029";
}

/** Index of the first line break at or after `from`, or `text.length`. */
export function lineEndAt(text: string, from: number): number {
  let k = from;
  while (k < text.length && !isLineBreak(text[k])) k++;
  return k;
}

/** Index where the line containing position `end - 1` starts. */
export function lineStartBefore(text: string, end: number): number {
  let k = end;
  while (k > 0 && !isLineBreak(text[k - 1])) k--;
  return k;
}

/**
 * Whether two pieces of text may touch directly after something between them was removed. Only a
 * word followed by closing punctuation may; anything else gets one space, so a removal can never
 * glue characters into a new tag, INTENT token or code fence.
 */
export function mayJoinDirectly(left: string | undefined, right: string | undefined): boolean {
  return left !== undefined && right !== undefined && /[\p{L}\p{N}]/u.test(left) && ".,!?;)".includes(right);
}

/** True for ASCII letters, digits and underscore (the `\w` class). */
export function isWordChar(ch: string | undefined): boolean {
  if (ch === undefined || ch.length === 0) return false;
  const code = ch.charCodeAt(0);
  return (
    (code >= 0x30 && code <= 0x39) ||
    (code >= 0x41 && code <= 0x5a) ||
    (code >= 0x61 && code <= 0x7a) ||
    code === 0x5f
  );
}
