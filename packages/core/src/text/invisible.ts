/**
 * True for a character a reader never sees: zero-width spaces and joiners, the soft hyphen, the word
 * joiner and invisible operators, the byte-order mark, the combining grapheme joiner, bidi controls
 * and the Mongolian vowel separator. Removing them is how text reads on screen.
 */
export function isInvisibleCode(code: number): boolean {
  return (
    code === 0x00ad ||
    code === 0x034f ||
    code === 0x061c ||
    code === 0x115f ||
    code === 0x1160 ||
    code === 0x17b4 ||
    code === 0x17b5 ||
    code === 0x180e ||
    (code >= 0x200b && code <= 0x200f) ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2060 && code <= 0x206f) ||
    code === 0x3164 ||
    code === 0xfeff ||
    code === 0xffa0
  );
}
