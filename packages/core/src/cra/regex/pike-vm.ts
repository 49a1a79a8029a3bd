import { type CaseClasses, caseClassTables } from "../../text/case-fold.js";
import { isAsciiWordCode } from "../../text/words.js";
import {
  type CompiledSet,
  LOOK_ASSERTION_BASE,
  OP_ASSERT,
  OP_CHAR,
  OP_JMP,
  OP_MATCH,
  OP_SPLIT,
  type Program,
  rangesHold,
} from "./program.js";

/** Outcome of one search: the leftmost match (JavaScript priority rules) and the work it took. */
export interface SafeRegexSearch {
  readonly found: boolean;
  /** Start of the leftmost match, -1 when none. */
  readonly index: number;
  /**
   * End (exclusive) of that match, -1 when none. Follows JavaScript's priorities except that an
   * empty iteration of a quantified group is not rejected, so the end can be shorter there.
   */
  readonly end: number;
  /** Instructions executed; at most about `input length * program size`. */
  readonly steps: number;
  /** True when the step cap stopped the search early (reported as no match). */
  readonly exhausted: boolean;
}

/**
 * Runs a program over `input` as a Pike VM: every thread advances in lock-step, each instruction
 * holds at most one thread per position, so time is O(scanned length * program size) whatever
 * the pattern or input. Only the first `maxInput` code units are scanned. Each lookaround first
 * gets one pass of its own over the scanned input (see `lookTable`), so it costs the same order.
 */
export function runPikeVm(
  program: Program,
  input: string,
  options: { readonly ignoreCase: boolean; readonly maxInput: number; readonly maxSteps: number },
): SafeRegexSearch {
  const run: Run = {
    input,
    n: Math.min(input.length, options.maxInput),
    ignoreCase: options.ignoreCase,
    maxSteps: options.maxSteps,
    steps: 0,
  };
  const tables = lookTables(program, run);
  if (tables === null) return { found: false, index: -1, end: -1, steps: run.steps, exhausted: true };
  const result = scan(program, run, tables, false, null);
  return { ...result, steps: run.steps };
}

/** One search: the input, the scanned length and the step budget shared by all its passes. */
interface Run {
  readonly input: string;
  readonly n: number;
  readonly ignoreCase: boolean;
  readonly maxSteps: number;
  steps: number;
}

/** Per lookaround of `program`, whether it holds at each original position 0..n; null when out of steps. */
function lookTables(program: Program, run: Run): Uint8Array[] | null {
  const tables: Uint8Array[] = [];
  for (const look of program.looks) {
    const inner = lookTables(look.program, run);
    if (inner === null) return null;
    const ends = new Uint8Array(run.n + 1);
    const done = scan(look.program, run, inner, look.ahead, ends);
    if (done.exhausted) return null;
    const table = new Uint8Array(run.n + 1);
    for (let p = 0; p <= run.n; p++) {
      // Ahead: the reversed pass ends at n - p exactly when a forward match starts at p.
      const hit = (look.ahead ? ends[run.n - p] : ends[p]) === 1;
      table[p] = hit !== look.negate ? 1 : 0;
    }
    tables.push(table);
  }
  return tables;
}

/**
 * The Pike VM proper. With `ends` null it finds the leftmost match (JavaScript priorities); with an
 * array it starts a thread at every position and marks every position where some match ends. With
 * `reverse` it reads the scanned input backwards; assertions still test original positions.
 */
function scan(
  program: Program,
  run: Run,
  tables: readonly Uint8Array[],
  reverse: boolean,
  ends: Uint8Array | null,
): Omit<SafeRegexSearch, "steps"> {
  const { op, arg1, arg2, sets, size } = program;
  const { input, n } = run;
  const classes = run.ignoreCase ? caseClassTables() : null;
  const fullLength = input.length;
  const all = ends !== null;

  let curPcs = new Int32Array(size);
  let curStarts = new Int32Array(size);
  let nextPcs = new Int32Array(size);
  let nextStarts = new Int32Array(size);
  let curLen = 0;
  let nextLen = 0;
  const mark = new Int32Array(size).fill(-1);
  const stack = new Int32Array(size * 2 + 2);
  let generation = 0;

  // `at` is a position of this pass; assertions look at the original input.
  const holds = (assertion: number, at: number): boolean => {
    const pos = reverse ? n - at : at;
    if (assertion >= LOOK_ASSERTION_BASE) return tables[assertion - LOOK_ASSERTION_BASE]?.[pos] === 1;
    if (assertion === 0) return pos === 0;
    if (assertion === 1) return pos === fullLength;
    const before = pos > 0 && isAsciiWordCode(input.charCodeAt(pos - 1));
    const after = pos < fullLength && isAsciiWordCode(input.charCodeAt(pos));
    return assertion === 2 ? before !== after : before === after;
  };

  // Follows jumps, splits and assertions from `pc` in priority order and queues the threads that
  // wait on a character (or a match) into the "next" list.
  const addThread = (pc0: number, start: number, pos: number): void => {
    let sp = 0;
    stack[sp++] = pc0;
    while (sp > 0) {
      const pc = stack[--sp] as number;
      if (mark[pc] === generation) continue;
      mark[pc] = generation;
      run.steps++;
      switch (op[pc]) {
        case OP_JMP:
          stack[sp++] = arg1[pc] as number;
          break;
        case OP_SPLIT:
          stack[sp++] = arg2[pc] as number;
          stack[sp++] = arg1[pc] as number;
          break;
        case OP_ASSERT:
          if (holds(arg1[pc] as number, pos)) stack[sp++] = pc + 1;
          break;
        default:
          nextPcs[nextLen] = pc;
          nextStarts[nextLen] = start;
          nextLen++;
      }
    }
  };

  const swap = (): void => {
    [curPcs, nextPcs] = [nextPcs, curPcs];
    [curStarts, nextStarts] = [nextStarts, curStarts];
    curLen = nextLen;
    nextLen = 0;
  };

  let found = false;
  let index = -1;
  let end = -1;
  let exhausted = false;

  generation++;
  addThread(0, 0, 0);
  swap();
  for (let i = 0; i <= n; i++) {
    generation++;
    const raw = i >= n ? -1 : input.charCodeAt(reverse ? n - 1 - i : i);
    for (let t = 0; t < curLen; t++) {
      const pc = curPcs[t] as number;
      run.steps++;
      if (op[pc] === OP_MATCH) {
        if (all) {
          ends[i] = 1;
          continue;
        }
        found = true;
        index = curStarts[t] as number;
        end = i;
        break; // lower-priority threads lose to this match
      }
      if (op[pc] === OP_CHAR && raw >= 0) {
        const set = sets[arg1[pc] as number];
        if (set !== undefined && charMatches(set, raw, classes)) {
          addThread(pc + 1, curStarts[t] as number, i + 1);
        }
      }
    }
    if (i === n) break;
    // A later start only matters while nothing has matched (leftmost wins); every end counts for `ends`.
    if (all || !found) addThread(0, i + 1, i + 1);
    swap();
    if (curLen === 0 && found) break;
    if (run.steps > run.maxSteps) {
      exhausted = !found;
      break;
    }
  }
  return { found, index, end, exhausted };
}

// Case-insensitive matching (`classes` given) asks whether the set holds any unit with the character's
// canonical form, then applies negation, as JavaScript without the u flag does (so /σ/i matches ς).
// This runs for every thread at every character: it reads the class in place, allocating nothing, and
// an ASCII character's class is just its two cases (no other unit canonicalizes to ASCII).
function charMatches(set: CompiledSet, code: number, classes: CaseClasses | null): boolean {
  let inside = rangesHold(set, code);
  if (inside || classes === null) return inside !== set.negated;
  if (code < 128) {
    const other = (code | 0x20) >= 97 && (code | 0x20) <= 122 ? code ^ 0x20 : code;
    inside = set.ascii[other] === 1;
  } else {
    const k = classes.canon[code] as number;
    const end = classes.start[k + 1] as number;
    for (let j = classes.start[k] as number; j < end; j++) {
      const variant = classes.units[j] as number;
      if (variant !== code && rangesHold(set, variant)) {
        inside = true;
        break;
      }
    }
  }
  return inside !== set.negated;
}
