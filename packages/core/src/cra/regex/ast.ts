/** Inclusive code-unit ranges `[lo0, hi0, lo1, hi1, ...]`, optionally negated. */
export interface CharSet {
  readonly ranges: readonly number[];
  readonly negated: boolean;
}

export type Assertion = "start" | "end" | "word" | "nonword";

/** The syntax tree of the supported regex subset (no backreferences). */
export type RegexNode =
  | { readonly kind: "empty" }
  /** `(?=x)`, `(?!x)` (ahead) and `(?<=x)`, `(?<!x)` (behind): a zero-width test of the input there. */
  | { readonly kind: "look"; readonly ahead: boolean; readonly negate: boolean; readonly node: RegexNode }
  | { readonly kind: "set"; readonly set: CharSet }
  | { readonly kind: "assert"; readonly assertion: Assertion }
  | { readonly kind: "concat"; readonly items: readonly RegexNode[] }
  | { readonly kind: "alt"; readonly options: readonly RegexNode[] }
  | {
      readonly kind: "repeat";
      readonly node: RegexNode;
      readonly min: number;
      readonly max: number;
      readonly greedy: boolean;
    };

export const DIGIT_RANGES: readonly number[] = [48, 57];
export const WORD_RANGES: readonly number[] = [48, 57, 65, 90, 95, 95, 97, 122];
export const SPACE_RANGES: readonly number[] = [
  9, 13, 32, 32, 0xa0, 0xa0, 0x1680, 0x1680, 0x2000, 0x200a, 0x2028, 0x2029, 0x202f, 0x202f, 0x205f, 0x205f,
  0x3000, 0x3000, 0xfeff, 0xfeff,
];
export const LINE_TERMINATORS: readonly number[] = [10, 10, 13, 13, 0x2028, 0x2029];

/** The complement of sorted, non-overlapping ranges within the UTF-16 code-unit space. */
export function complementRanges(ranges: readonly number[]): number[] {
  const sorted = normalizeRanges(ranges);
  const out: number[] = [];
  let next = 0;
  for (let i = 0; i < sorted.length; i += 2) {
    const lo = sorted[i] as number;
    const hi = sorted[i + 1] as number;
    if (lo > next) out.push(next, lo - 1);
    next = hi + 1;
  }
  if (next <= 0xffff) out.push(next, 0xffff);
  return out;
}

/** Sorts and merges ranges. */
export function normalizeRanges(ranges: readonly number[]): number[] {
  const pairs: [number, number][] = [];
  for (let i = 0; i + 1 < ranges.length; i += 2) pairs.push([ranges[i] as number, ranges[i + 1] as number]);
  pairs.sort((a, b) => a[0] - b[0]);
  const out: number[] = [];
  for (const [lo, hi] of pairs) {
    const last = out.length - 1;
    if (last > 0 && lo <= (out[last] as number) + 1) {
      out[last] = Math.max(out[last] as number, hi);
    } else {
      out.push(lo, hi);
    }
  }
  return out;
}

/**
 * The tree that matches the reversed strings of `node`: a match of it over reversed input ending
 * at position r is a match of `node` starting at `length - r`. Assertions, lookarounds included,
 * stay as they are: they test positions of the original input.
 */
export function reverseNode(node: RegexNode): RegexNode {
  switch (node.kind) {
    case "concat":
      return { kind: "concat", items: node.items.map(reverseNode).reverse() };
    case "alt":
      return { kind: "alt", options: node.options.map(reverseNode) };
    case "repeat":
      return { ...node, node: reverseNode(node.node) };
    default:
      return node;
  }
}
