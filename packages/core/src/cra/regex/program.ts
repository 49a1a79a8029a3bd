import { type Assertion, type CharSet, normalizeRanges, type RegexNode, reverseNode } from "./ast.js";
import { RegexSyntaxError } from "./parser.js";

export const OP_CHAR = 0;
export const OP_SPLIT = 1;
export const OP_JMP = 2;
export const OP_ASSERT = 3;
export const OP_MATCH = 4;

const ASSERTION_CODES: Record<Assertion, number> = { start: 0, end: 1, word: 2, nonword: 3 };
/** OP_ASSERT codes from here on name `Program.looks[code - LOOK_ASSERTION_BASE]`. */
export const LOOK_ASSERTION_BASE = 4;

/** A compiled character set: an ASCII bitmap plus sorted ranges for the rest. */
export interface CompiledSet {
  readonly ascii: Uint8Array;
  readonly ranges: Int32Array;
  readonly negated: boolean;
}

/** A Pike-VM program in parallel arrays (`arg1`/`arg2` are jump targets, a set or an assertion). */
export interface Program {
  readonly size: number;
  readonly op: Uint8Array;
  readonly arg1: Int32Array;
  readonly arg2: Int32Array;
  readonly sets: readonly CompiledSet[];
  /** The lookarounds its OP_ASSERT codes name (see LOOK_ASSERTION_BASE). */
  readonly looks: readonly LookProgram[];
}

/**
 * A lookaround's own program. A lookbehind's runs forward and one ending at p makes the test hold
 * at p; a lookahead's is compiled reversed and run over the reversed input, so that it too reports
 * match ends, each the start of a forward match.
 */
export interface LookProgram {
  readonly ahead: boolean;
  readonly negate: boolean;
  readonly program: Program;
}

/**
 * Compiles a tree into a program of at most `maxSize` instructions (lookaround programs included),
 * or throws RegexSyntaxError.
 */
export function compileProgram(root: RegexNode, maxSize: number): Program {
  return compileInto(root, { used: 0, max: maxSize });
}

function compileInto(root: RegexNode, budget: { used: number; readonly max: number }): Program {
  const maxSize = budget.max;
  const op: number[] = [];
  const arg1: number[] = [];
  const arg2: number[] = [];
  const sets: CompiledSet[] = [];
  const looks: LookProgram[] = [];

  const emit = (code: number, a = 0, b = 0): number => {
    if (budget.used >= maxSize) {
      throw new RegexSyntaxError(
        "regex_too_large",
        `pattern compiles to more than ${maxSize} instructions`,
        0,
      );
    }
    budget.used++;
    op.push(code);
    arg1.push(a);
    arg2.push(b);
    return op.length - 1;
  };

  const gen = (node: RegexNode): void => {
    switch (node.kind) {
      case "empty":
        return;
      case "set":
        sets.push(compileSet(node.set));
        emit(OP_CHAR, sets.length - 1);
        return;
      case "assert":
        emit(OP_ASSERT, ASSERTION_CODES[node.assertion]);
        return;
      case "look": {
        const program = compileInto(node.ahead ? reverseNode(node.node) : node.node, budget);
        looks.push({ ahead: node.ahead, negate: node.negate, program });
        emit(OP_ASSERT, LOOK_ASSERTION_BASE + looks.length - 1);
        return;
      }
      case "concat":
        for (const item of node.items) gen(item);
        return;
      case "alt": {
        const jumps: number[] = [];
        node.options.forEach((option, i) => {
          if (i === node.options.length - 1) {
            gen(option);
            return;
          }
          const split = emit(OP_SPLIT);
          arg1[split] = op.length;
          gen(option);
          jumps.push(emit(OP_JMP));
          arg2[split] = op.length;
        });
        for (const j of jumps) arg1[j] = op.length;
        return;
      }
      case "repeat": {
        for (let i = 0; i < node.min; i++) gen(node.node);
        if (node.max === Number.POSITIVE_INFINITY) {
          const split = emit(OP_SPLIT);
          const body = op.length;
          gen(node.node);
          emit(OP_JMP, split);
          setBranches(split, body, op.length, node.greedy);
          return;
        }
        const splits: number[] = [];
        for (let i = node.min; i < node.max; i++) {
          const split = emit(OP_SPLIT);
          splits.push(split);
          arg1[split] = op.length; // body start; the exit is patched below
          gen(node.node);
        }
        for (const split of splits) setBranches(split, arg1[split] as number, op.length, node.greedy);
        return;
      }
    }
  };

  const setBranches = (split: number, body: number, exit: number, greedy: boolean): void => {
    arg1[split] = greedy ? body : exit;
    arg2[split] = greedy ? exit : body;
  };

  gen(root);
  emit(OP_MATCH);
  return {
    size: op.length,
    op: Uint8Array.from(op),
    arg1: Int32Array.from(arg1),
    arg2: Int32Array.from(arg2),
    sets,
    looks,
  };
}

function compileSet(set: CharSet): CompiledSet {
  const ranges = normalizeRanges(set.ranges);
  const ascii = new Uint8Array(128);
  const rest: number[] = [];
  for (let i = 0; i < ranges.length; i += 2) {
    const lo = ranges[i] as number;
    const hi = ranges[i + 1] as number;
    for (let c = lo; c <= Math.min(hi, 127); c++) ascii[c] = 1;
    if (hi >= 128) rest.push(Math.max(lo, 128), hi);
  }
  return { ascii, ranges: Int32Array.from(rest), negated: set.negated };
}

/** True when `code` is in the set's ranges, ignoring negation. */
export function rangesHold(set: CompiledSet, code: number): boolean {
  if (code < 128) return set.ascii[code] === 1;
  const r = set.ranges;
  let lo = 0;
  let hi = (r.length >> 1) - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if (code < (r[mid * 2] as number)) hi = mid - 1;
    else if (code > (r[mid * 2 + 1] as number)) lo = mid + 1;
    else return true;
  }
  return false;
}

/** True when `code` belongs to the set. */
export function setHas(set: CompiledSet, code: number): boolean {
  return rangesHold(set, code) !== set.negated;
}
