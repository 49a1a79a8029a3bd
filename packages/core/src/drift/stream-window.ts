import { normalizeWithOffsets, settledLength } from "../driver-blocks/patterns.js";

/**
 * The normalised settled text of a stream, kept incrementally for the stream guard (issue 25).
 *
 * The raw text is split at a boundary B into a fixed prefix and the rest. B is only ever put where an
 * ASCII whitespace character is followed by an ASCII letter or digit that normalisation read as a
 * plain character. Nothing normalisation does crosses such a point: markup and entities end before
 * it, a combining mark cannot follow the whitespace, an underscore run, a dotted abbreviation or a
 * final-sigma context stops at whitespace, and the whitespace run collapses to one space. So
 * normalising the whole settled text gives normalise(prefix) + " " + normalise(rest) (the space is the
 * prefix's trimmed trailing one; it is absent while the rest normalises to nothing), and only the rest
 * is normalised again on each push.
 */
export interface StreamView {
  /** The normalised settled text from `start` on. */
  readonly text: string;
  readonly start: number;
  /** Length of the whole normalised settled text. */
  readonly length: number;
  /** As NormalizedWithOffsets.trailingSpace for the whole settled text. */
  readonly trailingSpace: boolean;
  /** Raw length of the settled text. */
  readonly settled: number;
  /** Raw index of normalised character `index` (index >= start; `length` gives `settled`). */
  offsetAt(index: number): number;
}

export interface StreamWindow {
  /** Normalises what follows the fixed prefix; the view starts at `from` (clamped to what is kept). */
  view(text: string, finished: boolean, from: number): StreamView;
  /** Moves the fixed prefix as far as the last view allows; true when it moved. */
  advance(text: string): boolean;
  /** Forgets the fixed normalised text before `index` (views will not start before it). */
  forgetBefore(index: number): void;
  /** Normalised length of the fixed prefix: later text never changes it, and a space or the end follows it. */
  readonly fixedLength: number;
}

const isAsciiSpace = (code: number) => code === 0x20 || (code >= 0x09 && code <= 0x0d);
const isAsciiAlnum = (code: number) =>
  (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);

export function createStreamWindow(): StreamWindow {
  let boundary = 0; // B, raw
  let fixed = ""; // normalised fixed prefix from fixedStart on
  let fixedStart = 0;
  let fixedOffsets: number[] = [];
  let fixedLength = 0;
  let spaceAt = 0; // raw index of the fixed prefix's trimmed trailing space
  let last: { normalized: string; offsets: Int32Array; finished: boolean } | null = null;

  return {
    view(text, finished, from) {
      const tail = text.slice(boundary);
      const rest = finished ? tail : tail.slice(0, settledLength(tail));
      const { normalized, offsets, trailingSpace } = normalizeWithOffsets(rest);
      last = { normalized, offsets, finished };
      const sep = fixedLength > 0 && normalized.length > 0 ? 1 : 0;
      const start = Math.max(fixedStart, Math.min(from, fixedLength));
      const b = boundary;
      const fl = fixedLength;
      const fs = fixedStart;
      const fo = fixedOffsets;
      const sp = spaceAt;
      return {
        text: `${fixed.slice(start - fixedStart)}${sep === 1 ? " " : ""}${normalized}`,
        start,
        length: fixedLength + sep + normalized.length,
        trailingSpace: normalized.length > 0 || fixedLength === 0 ? trailingSpace : true,
        settled: boundary + rest.length,
        offsetAt(index) {
          if (index < fl) return fo[index - fs] as number;
          if (index === fl && sep === 1) return sp;
          return (offsets[index - fl - sep] as number) + b;
        },
      };
    },
    advance(text) {
      if (last === null || last.finished) return false;
      const { normalized, offsets } = last;
      let j = normalized.length - 1;
      for (; j >= 2; j--) {
        if (normalized.charCodeAt(j - 1) !== 0x20) continue;
        const raw = (offsets[j] as number) + boundary;
        if (isAsciiAlnum(text.charCodeAt(raw)) && isAsciiSpace(text.charCodeAt(raw - 1))) break;
      }
      if (j < 2) return false;
      if (fixedLength > 0) {
        fixed += " ";
        fixedOffsets.push(spaceAt);
        fixedLength++;
      }
      fixed += normalized.slice(0, j - 1);
      for (let k = 0; k < j - 1; k++) fixedOffsets.push((offsets[k] as number) + boundary);
      fixedLength += j - 1;
      spaceAt = (offsets[j - 1] as number) + boundary;
      boundary += offsets[j] as number;
      last = null;
      return true;
    },
    forgetBefore(index) {
      const drop = Math.min(index, fixedLength) - fixedStart;
      // Amortised: cut only once the forgotten part outweighs what is kept.
      if (drop < 1024 || drop < fixed.length / 2) return;
      fixed = fixed.slice(drop);
      fixedOffsets = fixedOffsets.slice(drop);
      fixedStart += drop;
    },
    get fixedLength() {
      return fixedLength;
    },
  };
}
