import {
  type Assertion,
  type CharSet,
  complementRanges,
  DIGIT_RANGES,
  LINE_TERMINATORS,
  type RegexNode,
  SPACE_RANGES,
  WORD_RANGES,
} from "./ast.js";

/** Why a pattern was refused: bad syntax, a feature outside the linear subset, or too large. */
export type RegexIssueCode = "regex_invalid" | "regex_unsupported" | "regex_too_large";

/** A parse failure with the offending offset in the pattern. */
export class RegexSyntaxError {
  constructor(
    readonly code: RegexIssueCode,
    readonly message: string,
    readonly offset: number,
  ) {}
}

/** Upper bound of a counted repetition `{n,m}` (larger bounds would blow up the program). */
export const MAX_REPEAT_BOUND = 100;

const QUANTIFIER_RE = /^\{(\d+)(,(\d*))?\}/;

/** Parses a JavaScript-syntax regex (no flags) into the linear subset's tree, or throws RegexSyntaxError. */
export function parseRegex(source: string): RegexNode {
  const parser = new Parser(source);
  const node = parser.parseAlternation();
  if (!parser.eof()) parser.fail("regex_invalid", "unmatched ')'");
  return node;
}

const single = (code: number): CharSet => ({ ranges: [code, code], negated: false });

class Parser {
  private pos = 0;
  private depth = 0;

  constructor(private readonly src: string) {}

  eof(): boolean {
    return this.pos >= this.src.length;
  }

  fail(code: RegexIssueCode, message: string, offset = this.pos): never {
    throw new RegexSyntaxError(code, message, offset);
  }

  private peek(offset = 0): string {
    return this.src.charAt(this.pos + offset);
  }

  parseAlternation(): RegexNode {
    if (++this.depth > 100) this.fail("regex_too_large", "groups are nested too deeply");
    const options: RegexNode[] = [this.parseConcat()];
    while (this.peek() === "|") {
      this.pos++;
      options.push(this.parseConcat());
    }
    this.depth--;
    return options.length === 1 ? (options[0] as RegexNode) : { kind: "alt", options };
  }

  private parseConcat(): RegexNode {
    const items: RegexNode[] = [];
    while (!this.eof() && this.peek() !== "|" && this.peek() !== ")") items.push(this.parseRepeat());
    if (items.length === 0) return { kind: "empty" };
    return items.length === 1 ? (items[0] as RegexNode) : { kind: "concat", items };
  }

  private parseRepeat(): RegexNode {
    const atomStart = this.pos;
    const atom = this.parseAtom();
    const quant = this.readQuantifier();
    if (!quant) return atom;
    if (atom.kind === "assert" && this.src.charAt(atomStart) !== "(") {
      this.fail("regex_invalid", "an assertion cannot be repeated", atomStart);
    }
    // JavaScript (without the u flag) lets a lookahead be quantified, never a lookbehind.
    if (atom.kind === "look" && !atom.ahead && this.src.startsWith("(?<", atomStart)) {
      this.fail("regex_invalid", "nothing to repeat", atomStart);
    }
    if (this.readQuantifier(true)) this.fail("regex_invalid", "nothing to repeat");
    return { kind: "repeat", node: atom, ...quant };
  }

  private readQuantifier(peekOnly = false): { min: number; max: number; greedy: boolean } | undefined {
    const c = this.peek();
    let min: number;
    let max: number;
    let length = 1;
    if (c === "*") [min, max] = [0, Number.POSITIVE_INFINITY];
    else if (c === "+") [min, max] = [1, Number.POSITIVE_INFINITY];
    else if (c === "?") [min, max] = [0, 1];
    else if (c === "{") {
      const m = QUANTIFIER_RE.exec(this.src.slice(this.pos, this.pos + 24));
      if (!m) return undefined; // a "{" that is not a quantifier is a literal, as in JavaScript
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] === "" ? Number.POSITIVE_INFINITY : Number(m[3]);
      length = m[0].length;
      if (peekOnly) return { min, max, greedy: true };
      if (max < min) this.fail("regex_invalid", "numbers out of order in {} quantifier");
      if (min > MAX_REPEAT_BOUND || (max !== Number.POSITIVE_INFINITY && max > MAX_REPEAT_BOUND)) {
        this.fail("regex_too_large", `repetition bounds above ${MAX_REPEAT_BOUND} are not supported`);
      }
    } else return undefined;
    if (peekOnly) return { min, max, greedy: true };
    this.pos += length;
    let greedy = true;
    if (this.peek() === "?") {
      greedy = false;
      this.pos++;
    }
    return { min, max, greedy };
  }

  private parseAtom(): RegexNode {
    const c = this.peek();
    const start = this.pos;
    switch (c) {
      case "(":
        return this.parseGroup();
      case "[":
        return { kind: "set", set: this.parseClass() };
      case ".":
        this.pos++;
        return { kind: "set", set: { ranges: LINE_TERMINATORS, negated: true } };
      case "^":
        this.pos++;
        return { kind: "assert", assertion: "start" };
      case "$":
        this.pos++;
        return { kind: "assert", assertion: "end" };
      case "\\":
        return this.parseEscape();
      case "*":
      case "+":
      case "?":
        return this.fail("regex_invalid", "nothing to repeat", start);
      case "{":
        if (this.readQuantifier(true)) this.fail("regex_invalid", "nothing to repeat", start);
        this.pos++;
        return { kind: "set", set: single(123) };
      default:
        this.pos++;
        return { kind: "set", set: single(c.charCodeAt(0)) };
    }
  }

  private parseGroup(): RegexNode {
    const start = this.pos;
    this.pos++;
    let look: { ahead: boolean; negate: boolean } | undefined;
    if (this.peek() === "?") {
      const next = this.peek(1);
      if (next === ":") this.pos += 2;
      else if (next === "=" || next === "!") {
        look = { ahead: true, negate: next === "!" };
        this.pos += 2;
      } else if (next === "<" && (this.peek(2) === "=" || this.peek(2) === "!")) {
        look = { ahead: false, negate: this.peek(2) === "!" };
        this.pos += 3;
      } else if (next === "<") {
        const close = this.src.indexOf(">", this.pos);
        const name = close < 0 ? "" : this.src.slice(this.pos + 2, close);
        if (!/^[A-Za-z_$][\w$]*$/.test(name)) this.fail("regex_invalid", "invalid group name", start);
        this.pos = close + 1;
      } else this.fail("regex_invalid", "invalid group", start);
    }
    const inner = this.parseAlternation();
    if (this.peek() !== ")") this.fail("regex_invalid", "unterminated group", start);
    this.pos++;
    return look === undefined ? inner : { kind: "look", ...look, node: inner };
  }

  private parseEscape(): RegexNode {
    const start = this.pos;
    this.pos++;
    if (this.eof()) this.fail("regex_invalid", "\\ at end of pattern", start);
    const c = this.peek();
    const assertion: Assertion | undefined = c === "b" ? "word" : c === "B" ? "nonword" : undefined;
    if (assertion) {
      this.pos++;
      return { kind: "assert", assertion };
    }
    if (c >= "1" && c <= "9") this.fail("regex_unsupported", "backreferences are not supported", start);
    if (c === "k" && this.peek(1) === "<") {
      this.fail("regex_unsupported", "named backreferences are not supported", start);
    }
    return { kind: "set", set: this.parseEscapeBody(start, false) };
  }

  /** The part after "\\" shared by atoms and classes; `pos` is at the escaped character. */
  private parseEscapeBody(start: number, inClass: boolean): CharSet {
    const c = this.peek();
    this.pos++;
    switch (c) {
      case "d":
        return { ranges: DIGIT_RANGES, negated: false };
      case "D":
        return { ranges: DIGIT_RANGES, negated: true };
      case "w":
        return { ranges: WORD_RANGES, negated: false };
      case "W":
        return { ranges: WORD_RANGES, negated: true };
      case "s":
        return { ranges: SPACE_RANGES, negated: false };
      case "S":
        return { ranges: SPACE_RANGES, negated: true };
      case "n":
        return single(10);
      case "r":
        return single(13);
      case "t":
        return single(9);
      case "v":
        return single(11);
      case "f":
        return single(12);
      case "b":
        return single(8); // only reachable inside a class, where \b is a backspace
      case "0":
        if (/[0-9]/.test(this.peek()))
          this.fail("regex_unsupported", "octal escapes are not supported", start);
        return single(0);
      case "x": {
        const hex = this.src.slice(this.pos, this.pos + 2);
        if (/^[0-9a-fA-F]{2}$/.test(hex)) {
          this.pos += 2;
          return single(Number.parseInt(hex, 16));
        }
        return single(120);
      }
      case "u": {
        if (this.peek() === "{") this.fail("regex_unsupported", "\\u{...} needs the u flag", start);
        const hex = this.src.slice(this.pos, this.pos + 4);
        if (/^[0-9a-fA-F]{4}$/.test(hex)) {
          this.pos += 4;
          return single(Number.parseInt(hex, 16));
        }
        return single(117);
      }
      case "c": {
        const letter = this.peek();
        if (/^[A-Za-z]$/.test(letter)) {
          this.pos++;
          return single(letter.charCodeAt(0) % 32);
        }
        return this.fail("regex_invalid", "invalid control escape", start);
      }
      case "p":
      case "P":
        return this.fail("regex_unsupported", "\\p{...} needs the u flag", start);
      default:
        if (inClass && c >= "1" && c <= "9")
          this.fail("regex_unsupported", "octal escapes are not supported", start);
        return single(c.charCodeAt(0));
    }
  }

  private parseClass(): CharSet {
    const start = this.pos;
    this.pos++;
    let negated = false;
    if (this.peek() === "^") {
      negated = true;
      this.pos++;
    }
    const ranges: number[] = [];
    for (;;) {
      if (this.eof()) this.fail("regex_invalid", "unterminated character class", start);
      if (this.peek() === "]") {
        this.pos++;
        break;
      }
      const first = this.classAtom();
      if (this.peek() === "-" && this.peek(1) !== "]" && this.pos + 1 < this.src.length && first.single) {
        const save = this.pos;
        this.pos++;
        const second = this.classAtom();
        if (second.single) {
          const lo = first.set.ranges[0] as number;
          const hi = second.set.ranges[0] as number;
          if (lo > hi) this.fail("regex_invalid", "range out of order in character class", save);
          ranges.push(lo, hi);
          continue;
        }
        // "[a-\d]": JavaScript (without u) reads the "-" literally
        ranges.push(...first.set.ranges, 45, 45);
        appendSet(ranges, second.set);
        continue;
      }
      appendSet(ranges, first.set);
    }
    return { ranges, negated };
  }

  private classAtom(): { set: CharSet; single: boolean } {
    const c = this.peek();
    if (c === "\\") {
      const start = this.pos;
      this.pos++;
      if (this.eof()) this.fail("regex_invalid", "\\ at end of pattern", start);
      const escaped = this.peek();
      const set = this.parseEscapeBody(start, true);
      const isSingle = !"dDwWsS".includes(escaped);
      return { set, single: isSingle };
    }
    this.pos++;
    return { set: single(c.charCodeAt(0)), single: true };
  }
}

function appendSet(target: number[], set: CharSet): void {
  target.push(...(set.negated ? complementRanges(set.ranges) : set.ranges));
}
