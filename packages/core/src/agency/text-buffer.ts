import { isHorizontalSpace, isLineBreak, mayJoinDirectly } from "../text/chars.js";

/**
 * Output text built from chunks, with cheap truncation back to an earlier length. The scanners
 * that cut tags and tokens out of text append runs of ordinary characters as single chunks, so
 * their cost is linear in the input and small per character.
 */
export class TextBuffer {
  private readonly chunks: string[] = [];
  private size = 0;

  /** Number of characters in the buffer. */
  get length(): number {
    return this.size;
  }

  /** Appends a piece of text. */
  push(text: string): void {
    if (text.length === 0) return;
    this.chunks.push(text);
    this.size += text.length;
  }

  /** Cuts the buffer back to `length` characters. */
  truncate(length: number): void {
    while (this.size > length) {
      const last = this.chunks[this.chunks.length - 1] as string;
      const before = this.size - last.length;
      if (before >= length) {
        this.chunks.pop();
        this.size = before;
      } else {
        this.chunks[this.chunks.length - 1] = last.slice(0, length - before);
        this.size = length;
      }
    }
  }

  /** The character `back` places from the end (1 = last), or undefined. */
  charFromEnd(back: number): string | undefined {
    let remaining = back;
    for (let c = this.chunks.length - 1; c >= 0; c--) {
      const chunk = this.chunks[c] as string;
      if (remaining <= chunk.length) return chunk[chunk.length - remaining];
      remaining -= chunk.length;
    }
    return undefined;
  }

  /** True when the buffer ends with `lower`, compared case-insensitively (`lower` is lowercase). */
  endsWithLower(lower: string): boolean {
    if (this.size < lower.length) return false;
    for (let k = 1; k <= lower.length; k++) {
      if (this.charFromEnd(k)?.toLowerCase() !== lower[lower.length - k]) return false;
    }
    return true;
  }

  /** Text from position `from` to the end (used for short tails only). */
  tailFrom(from: number): string {
    const parts: string[] = [];
    let pos = this.size;
    for (let c = this.chunks.length - 1; c >= 0 && pos > from; c--) {
      const chunk = this.chunks[c] as string;
      pos -= chunk.length;
      parts.push(pos >= from ? chunk : chunk.slice(from - pos));
    }
    return parts.reverse().join("");
  }

  /**
   * Rejoins the text after a removed tag or token, before `next`: keeps one space between the two
   * sides unless they may touch directly or either side is a line break (Contract B keeps lines).
   */
  rejoinBefore(next: string | undefined): void {
    const last = this.charFromEnd(1);
    if (!mayJoinDirectly(last, next) && !isLineBreak(next) && last !== undefined && !isLineBreak(last)) {
      this.push(" ");
    }
  }

  /** Drops spaces and tabs at the end. */
  trimEndHorizontal(): void {
    while (this.chunks.length > 0) {
      const last = this.chunks[this.chunks.length - 1] as string;
      let end = last.length;
      while (end > 0 && isHorizontalSpace(last[end - 1])) end--;
      this.size -= last.length - end;
      if (end > 0) {
        this.chunks[this.chunks.length - 1] = last.slice(0, end);
        return;
      }
      this.chunks.pop();
    }
  }

  toString(): string {
    return this.chunks.join("");
  }
}
