import { fail, ok, type Result } from "../../result.js";
import { parseRegex, RegexSyntaxError } from "./parser.js";
import { runPikeVm, type SafeRegexSearch } from "./pike-vm.js";
import { compileProgram } from "./program.js";

/**
 * Limits of the linear-time regex engine. Work per search is bounded by
 * `min(input length, maxInputLength) * program size`, and additionally capped by `maxSteps`.
 */
export interface SafeRegexLimits {
  readonly maxPatternLength: number;
  readonly maxProgramSize: number;
  readonly maxInputLength: number;
  readonly maxSteps: number;
}

export const SAFE_REGEX_LIMITS: SafeRegexLimits = Object.freeze({
  maxPatternLength: 1_000,
  maxProgramSize: 2_000,
  maxInputLength: 20_000,
  maxSteps: 20_000_000,
});

export interface SafeRegexOptions {
  readonly ignoreCase?: boolean;
  readonly maxProgramSize?: number;
  readonly maxInputLength?: number;
  readonly maxSteps?: number;
}

/** A user-supplied pattern compiled for the linear-time engine; it can never backtrack. */
export interface SafeRegex {
  readonly source: string;
  readonly ignoreCase: boolean;
  readonly programSize: number;
  /** Finds the leftmost match in the first `maxInputLength` code units of `input`. */
  search(input: string): SafeRegexSearch;
  /** True when `search` finds a match. */
  test(input: string): boolean;
}

/**
 * Compiles a JavaScript-syntax pattern for the linear-time engine. Lookahead and lookbehind are
 * supported (each costs one more pass over the input); backreferences and `u`-only syntax are
 * refused (they cannot be matched in linear time or are out of the subset);
 * issues carry the code `regex_invalid`, `regex_unsupported` or `regex_too_large` and the offset.
 */
export function compileSafeRegex(source: string, options: SafeRegexOptions = {}): Result<SafeRegex> {
  const limits = { ...SAFE_REGEX_LIMITS, ...definedOnly(options) };
  if (source.length > limits.maxPatternLength) {
    return fail({
      code: "regex_too_large",
      message: `pattern is longer than ${limits.maxPatternLength} characters`,
    });
  }
  try {
    const program = compileProgram(parseRegex(source), limits.maxProgramSize);
    const vmOptions = {
      ignoreCase: options.ignoreCase ?? false,
      maxInput: limits.maxInputLength,
      maxSteps: limits.maxSteps,
    };
    return ok(
      Object.freeze({
        source,
        ignoreCase: vmOptions.ignoreCase,
        programSize: program.size,
        search: (input: string) => runPikeVm(program, input, vmOptions),
        test: (input: string) => runPikeVm(program, input, vmOptions).found,
      }),
    );
  } catch (error) {
    if (error instanceof RegexSyntaxError) {
      return fail({ code: error.code, message: `${error.message} (at offset ${error.offset})` });
    }
    throw error;
  }
}

function definedOnly(options: SafeRegexOptions): Partial<SafeRegexLimits> {
  const out: { -readonly [K in keyof SafeRegexLimits]?: number } = {};
  if (options.maxProgramSize !== undefined) out.maxProgramSize = options.maxProgramSize;
  if (options.maxInputLength !== undefined) out.maxInputLength = options.maxInputLength;
  if (options.maxSteps !== undefined) out.maxSteps = options.maxSteps;
  return out;
}
