import type { DriverBlockVersion, Enforcement } from "../contracts/driver-block.js";
import type { Issue } from "../result.js";
import type { CompiledPattern } from "./patterns.js";

/** Issue codes of the policy engine. `driver_block_limit` maps to HTTP 400 `driver_block_limit`, the rest to 400 `invalid_input`. */
export type PolicyIssueCode =
  | "driver_block_limit"
  | "unknown_driver_block"
  | "invalid_driver_block"
  | "duplicate_driver_block";

/** One reason a turn's Driver Blocks were rejected; limit issues name the limit, its value and the actual count. */
export interface PolicyIssue extends Issue {
  readonly code: PolicyIssueCode;
  readonly limit?: { readonly name: string; readonly max: number; readonly actual: number };
}

/** Where a compiled validator came from: `source` is "driver-block:<id>@<version>". */
export interface ValidatorOrigin {
  readonly blockId: string;
  readonly blockVersion: DriverBlockVersion;
  readonly source: string;
  readonly enforcement: Enforcement;
}

/** A validator ready for the linter. "off" validators are compiled (and prompted) but never checked. */
export type CompiledValidator = ValidatorOrigin &
  (
    | { readonly kind: "required"; readonly pattern: CompiledPattern }
    | { readonly kind: "must_not"; readonly pattern: CompiledPattern }
    | { readonly kind: "must_have_any"; readonly patterns: readonly CompiledPattern[] }
    | { readonly kind: "required_section"; readonly section: string }
  );

/**
 * What an action expectation requires once its `when` pattern matches: "receipt" (a receipt was
 * supplied to the linter), "action_needed" (the envelope proposes an action), "section:<Name>"
 * (a section heading) or any other text, read as a pattern that must also appear.
 */
export type ActionRequirement =
  | { readonly kind: "receipt" }
  | { readonly kind: "action_needed" }
  | { readonly kind: "section"; readonly section: string }
  | { readonly kind: "pattern"; readonly pattern: CompiledPattern };

/** A compiled action expectation: when `when` matches the reply, `requirement` must hold. */
export interface CompiledActionExpectation extends ValidatorOrigin {
  readonly when: CompiledPattern;
  readonly require: string;
  readonly requirement: ActionRequirement;
}

/** The audit view of an applied block. */
export interface AppliedBlock {
  readonly id: string;
  readonly version: DriverBlockVersion;
  readonly enforcement: Enforcement;
  readonly scope: "system" | "user";
}

/** A selected block that did not apply this turn, and why. */
export interface SkippedBlock {
  readonly id: string;
  readonly version: DriverBlockVersion;
  readonly reason: "not_for_mode";
}

/** The Driver Blocks of one turn, compiled for prompt assembly, the linter and the offline provider. */
export interface CompiledPolicy {
  readonly driverBlockMode: "default" | "custom";
  readonly promptConstraints: readonly string[];
  readonly outputContract: { readonly requiredSections: readonly string[] };
  readonly validators: readonly CompiledValidator[];
  readonly actionExpectations: readonly CompiledActionExpectation[];
  readonly blocks: readonly AppliedBlock[];
  readonly skipped: readonly SkippedBlock[];
}
