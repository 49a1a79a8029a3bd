/**
 * HTML the way a reader meets it in rendered text: tags and comments are not seen, entities are seen
 * as the character they name. Only tags of real HTML elements count, so "<guaranteed returns>" or
 * "a < b" stay text; scanning is bounded, so a stray "<" or "&" never makes a pass quadratic.
 */

/** What starts at a "<" or "&": markup to drop or decode, text, or (at the end of a prefix) not known yet. */
export type MarkupScan =
  | { readonly kind: "tag"; readonly end: number; readonly block: boolean }
  | { readonly kind: "entity"; readonly end: number; readonly value: string }
  | { readonly kind: "text" }
  | { readonly kind: "pending" };

/** Longest tag or comment recognised; a longer one is read as text. */
export const MAX_TAG_LENGTH = 256;
/** Longest entity recognised ("&" to ";"). */
export const MAX_ENTITY_LENGTH = 32;

// Elements that start a new line when rendered: dropping them leaves a space, not glued words.
const BLOCK_TAGS = new Set(
  "address article aside blockquote br dd details div dl dt fieldset figcaption figure footer form h1 h2 h3 h4 h5 h6 header hr li main nav ol p pre section summary table tbody td tfoot th thead tr ul".split(
    " ",
  ),
);
const INLINE_TAGS = new Set(
  "a abbr b bdi bdo big cite code data del dfn em font i img ins kbd mark q s samp small span strike strong sub sup time tt u var wbr".split(
    " ",
  ),
);

const NAMED_ENTITIES: Readonly<Record<string, string>> = Object.freeze({
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: "\u00a0",
  ensp: "\u2002",
  emsp: "\u2003",
  thinsp: "\u2009",
  hairsp: "\u200a",
  shy: "\u00ad",
  zwsp: "\u200b",
  zwnj: "\u200c",
  zwj: "\u200d",
  lrm: "\u200e",
  rlm: "\u200f",
  ZeroWidthSpace: "\u200b",
  NoBreak: "\u2060",
  ndash: "\u2013",
  mdash: "\u2014",
  lsquo: "\u2018",
  rsquo: "\u2019",
  ldquo: "\u201c",
  rdquo: "\u201d",
  hellip: "\u2026",
  middot: "\u00b7",
  period: ".",
  comma: ",",
  colon: ":",
  excl: "!",
  quest: "?",
  sol: "/",
  szlig: "\u00df",
});

// "&eacute;" and its kin: a letter and the name of its accent.
const ACCENT_MARKS: Readonly<Record<string, string>> = Object.freeze({
  acute: "\u0301",
  grave: "\u0300",
  circ: "\u0302",
  tilde: "\u0303",
  uml: "\u0308",
  ring: "\u030a",
  cedil: "\u0327",
});
const ACCENTED = /^([a-zA-Z])(acute|grave|circ|tilde|uml|ring|cedil)$/;

const ALL_TAG_NAMES = [...BLOCK_TAGS, ...INLINE_TAGS];
const ENTITY_NAMES = [
  ...Object.keys(NAMED_ENTITIES),
  "acute",
  "grave",
  "circ",
  "tilde",
  "uml",
  "ring",
  "cedil",
];

/**
 * Reads the markup starting at `start` (a "<" or "&"). With `final` false the text may still grow,
 * so markup cut off by its end is "pending" rather than text.
 */
export function scanMarkup(text: string, start: number, final: boolean): MarkupScan {
  return text.charAt(start) === "<" ? scanTag(text, start, final) : scanEntity(text, start, final);
}

function scanTag(text: string, start: number, final: boolean): MarkupScan {
  const limit = Math.min(text.length, start + MAX_TAG_LENGTH);
  const cutOff = (): MarkupScan => (!final && limit === text.length ? { kind: "pending" } : { kind: "text" });
  if (text.startsWith("<!--", start) || "<!--".startsWith(text.slice(start, start + 4))) {
    if (text.length - start < 4) return cutOff();
    const close = text.indexOf("-->", start + 4);
    if (close >= 0 && close + 3 <= limit) return { kind: "tag", end: close + 3, block: false };
    return cutOff();
  }
  let i = start + 1;
  if (text.charAt(i) === "/") i++;
  const nameStart = i;
  while (i < limit && /[a-zA-Z0-9]/.test(text.charAt(i))) i++;
  const name = text.slice(nameStart, i).toLowerCase();
  if (i === text.length) {
    const maybe = name === "" || ALL_TAG_NAMES.some((tag) => tag.startsWith(name));
    return maybe && !final ? { kind: "pending" } : { kind: "text" };
  }
  if (!BLOCK_TAGS.has(name) && !INLINE_TAGS.has(name)) return { kind: "text" };
  const next = text.charAt(i);
  if (next !== ">" && next !== "/" && !/\s/.test(next)) return { kind: "text" };
  for (let k = i; k < limit; k++) {
    const ch = text.charAt(k);
    if (ch === ">") return { kind: "tag", end: k + 1, block: BLOCK_TAGS.has(name) };
    if (ch === "<") return { kind: "text" };
  }
  return cutOff();
}

function scanEntity(text: string, start: number, final: boolean): MarkupScan {
  const limit = Math.min(text.length, start + MAX_ENTITY_LENGTH);
  let i = start + 1;
  while (i < limit && /[#a-zA-Z0-9]/.test(text.charAt(i))) i++;
  const body = text.slice(start + 1, i);
  if (i < limit && text.charAt(i) === ";") {
    const value = entityValue(body);
    return value === null ? { kind: "text" } : { kind: "entity", end: i + 1, value };
  }
  if (final || i < text.length || limit < text.length) return { kind: "text" };
  return couldBeEntity(body) ? { kind: "pending" } : { kind: "text" };
}

function entityValue(body: string): string | null {
  const numeric = /^#(?:([0-9]{1,7})|[xX]([0-9a-fA-F]{1,6}))$/.exec(body);
  if (numeric) {
    const code = numeric[1] !== undefined ? Number(numeric[1]) : Number.parseInt(numeric[2] as string, 16);
    const valid = code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff);
    return valid ? String.fromCodePoint(code) : null;
  }
  const named = NAMED_ENTITIES[body];
  if (named !== undefined) return named;
  const accented = ACCENTED.exec(body);
  return accented ? `${accented[1]}${ACCENT_MARKS[accented[2] as string]}`.normalize("NFC") : null;
}

function couldBeEntity(body: string): boolean {
  if (body === "" || /^#(?:[0-9]{0,7}|[xX][0-9a-fA-F]{0,6})$/.test(body)) return true;
  if (ENTITY_NAMES.some((name) => name.startsWith(body))) return true;
  return /^[a-zA-Z](?:a|ac|acu|acut|acute|g|gr|gra|grav|grave|c|ci|cir|circ|ce|ced|cedi|cedil|t|ti|til|tild|tilde|u|um|uml|r|ri|rin|ring)?$/.test(
    body,
  );
}
