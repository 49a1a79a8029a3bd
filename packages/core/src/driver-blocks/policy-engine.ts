import { z } from "zod";
import {
  DriverBlock,
  type DriverBlockInput,
  DriverBlockRef,
  type DriverBlockVersion,
} from "../contracts/driver-block.js";
import { SolError } from "../errors.js";
import { utf8ByteLength } from "../hash/sha256.js";
import { deepFreeze } from "../immutable/deep-freeze.js";
import { fail, ok, type Result } from "../result.js";
import { compileSelectedBlocks, type SelectedBlock } from "./compile.js";
import type { CompiledPolicy, PolicyIssue, SkippedBlock } from "./policy-types.js";
import { BASELINE_DRIVER_BLOCK_REFS, SYSTEM_DRIVER_BLOCKS } from "./system-blocks.js";

/** Product limits on the Driver Blocks of one turn (the packet schema only caps the payload). */
export const PolicyLimits = z
  .object({
    /** driverBlockRefs entries per turn. */
    maxRefs: z.number().int().nonnegative(),
    /** driverBlockInline blocks per turn. */
    maxInline: z.number().int().nonnegative(),
    /** Serialized JSON size (UTF-8 bytes) of one inline block, fields left at their defaults not counted. */
    maxInlineBytes: z.number().int().positive(),
    /** Distinct non-baseline blocks (refs + inline) per turn. */
    maxNonBaselineBlocks: z.number().int().nonnegative(),
  })
  .strict();
export type PolicyLimits = z.infer<typeof PolicyLimits>;

export const DEFAULT_POLICY_LIMITS: PolicyLimits = Object.freeze({
  maxRefs: 10,
  maxInline: 3,
  maxInlineBytes: 4096,
  maxNonBaselineBlocks: 15,
});

export interface PolicyEngineOptions {
  /** The system blocks resolvable by ref; defaults to SYSTEM_DRIVER_BLOCKS. */
  readonly systemBlocks?: readonly DriverBlockInput[];
  /** Which system blocks apply implicitly in driverBlockMode "default". */
  readonly baselineRefs?: readonly DriverBlockRef[];
  readonly limits?: Partial<PolicyLimits>;
}

/** What a turn asks for: the packet's Driver Block fields plus the routed mode. */
export interface PolicyRequest {
  readonly driverBlockMode?: "default" | "custom" | undefined;
  readonly driverBlockRefs?: readonly DriverBlockRef[] | undefined;
  readonly driverBlockInline?: readonly DriverBlockInput[] | undefined;
  readonly modeLabel?: string | undefined;
}

export interface PolicyEngine {
  readonly limits: PolicyLimits;
  readonly systemBlocks: readonly DriverBlock[];
  readonly baselineRefs: readonly DriverBlockRef[];
  /** Selects and compiles this turn's blocks; limit breaches fail with code `driver_block_limit`. */
  resolve(request: PolicyRequest): Result<CompiledPolicy, PolicyIssue>;
}

/** Validates a system block set (e.g. a SOL_DRIVER_BLOCKS file): schema, patterns, unique id@version. */
export function validateSystemBlocks(blocks: readonly unknown[]): Result<DriverBlock[], PolicyIssue> {
  const issues: PolicyIssue[] = [];
  const parsed: DriverBlock[] = [];
  const seen = new Set<string>();
  blocks.forEach((raw, i) => {
    const result = DriverBlock.safeParse(raw);
    if (!result.success) {
      for (const issue of result.error.issues) {
        issues.push({
          code: "invalid_driver_block",
          message: `systemBlocks[${i}]: ${issue.message}`,
          path: ["systemBlocks", i, ...issue.path.map((p) => (typeof p === "symbol" ? String(p) : p))],
        });
      }
      return;
    }
    // Patterns are checked here too: a bad one is the operator's error, not a 400 on every ref to it.
    const compiled = compileSelectedBlocks([{ block: result.data, path: ["systemBlocks", i] }]);
    if (!compiled.ok) {
      for (const issue of compiled.issues) {
        issues.push({ ...issue, message: `systemBlocks[${i}]: ${issue.message}` });
      }
      return;
    }
    const key = lookupKey(result.data);
    if (seen.has(key)) {
      issues.push({
        code: "duplicate_driver_block",
        message: `systemBlocks[${i}] repeats ${refKey(result.data)}`,
        path: ["systemBlocks", i],
      });
      return;
    }
    seen.add(key);
    parsed.push({ ...result.data, scope: "system" });
  });
  return issues.length > 0 ? fail(...issues) : ok(parsed);
}

/**
 * Creates the Policy Engine. driverBlockMode "default" (or absent) applies the baseline blocks plus
 * refs and inline blocks; "custom" applies only refs and inline blocks (no implicit baseline; the
 * mounted law's governance rules still hold because the linter enforces them on every turn).
 * Throws SolError `invalid_input` when the options are invalid: that is a configuration error.
 */
export function createPolicyEngine(options: PolicyEngineOptions = {}): PolicyEngine {
  const settings = {
    systemBlocks: SYSTEM_DRIVER_BLOCKS as readonly DriverBlockInput[],
    baselineRefs: BASELINE_DRIVER_BLOCK_REFS,
    ...options,
    limits: { ...DEFAULT_POLICY_LIMITS, ...options.limits },
  };
  const limits = PolicyLimits.safeParse(settings.limits);
  if (!limits.success) {
    throw new SolError("invalid_input", `invalid policy limits: ${limits.error.message}`, {
      details: limits.error.issues,
    });
  }
  const system = validateSystemBlocks(settings.systemBlocks);
  if (!system.ok) {
    throw new SolError("invalid_input", `invalid system driver blocks: ${system.issues[0]?.message}`, {
      details: system.issues,
    });
  }
  const byKey = new Map(system.value.map((block) => [lookupKey(block), block]));
  const baseline: DriverBlock[] = [];
  for (const ref of settings.baselineRefs) {
    const parsedRef = DriverBlockRef.safeParse(ref);
    const block = parsedRef.success ? byKey.get(lookupKey(parsedRef.data)) : undefined;
    if (block === undefined) {
      throw new SolError("invalid_input", `baseline ref ${refKey(ref)} is not among the system blocks`);
    }
    baseline.push(block);
  }
  const baselineKeys = new Set(baseline.map(lookupKey));
  const frozenLimits = Object.freeze({ ...limits.data });
  const systemBlocks = deepFreeze(system.value);

  const resolve = (request: PolicyRequest): Result<CompiledPolicy, PolicyIssue> => {
    const mode = request.driverBlockMode ?? "default";
    const refs = request.driverBlockRefs ?? [];
    const inline = request.driverBlockInline ?? [];
    const issues: PolicyIssue[] = [];

    if (refs.length > frozenLimits.maxRefs) {
      issues.push(
        limitIssue(
          "maxRefs",
          frozenLimits.maxRefs,
          refs.length,
          ["driverBlockRefs"],
          `driverBlockRefs has ${refs.length} refs; the limit is ${frozenLimits.maxRefs}`,
        ),
      );
    }
    if (inline.length > frozenLimits.maxInline) {
      issues.push(
        limitIssue(
          "maxInline",
          frozenLimits.maxInline,
          inline.length,
          ["driverBlockInline"],
          `driverBlockInline has ${inline.length} blocks; the limit is ${frozenLimits.maxInline}`,
        ),
      );
    }
    inline.forEach((raw, i) => {
      const bytes = inlineBytes(raw);
      if (bytes > frozenLimits.maxInlineBytes) {
        issues.push(
          limitIssue(
            "maxInlineBytes",
            frozenLimits.maxInlineBytes,
            bytes,
            ["driverBlockInline", i],
            `driverBlockInline[${i}] is ${bytes} bytes of JSON; the limit is ${frozenLimits.maxInlineBytes} bytes per block`,
          ),
        );
      }
    });
    if (issues.length > 0) return fail(...issues);

    const selected: SelectedBlock[] = [];
    const selectedIds = new Map<string, string>();
    let nonBaseline = 0;
    const select = (block: DriverBlock, path: ReadonlyArray<string | number>, label: string): void => {
      const key = refKey(block);
      const existing = selectedIds.get(block.id);
      if (existing === key && path[0] !== "driverBlockInline") return; // the same system block twice
      if (existing !== undefined) {
        issues.push({
          code: "duplicate_driver_block",
          message: `${label} uses id "${block.id}", which is already selected as ${existing}; give each block its own id`,
          path,
        });
        return;
      }
      selectedIds.set(block.id, key);
      if (!baselineKeys.has(lookupKey(block))) nonBaseline++;
      selected.push({ block, path });
    };

    if (mode === "default") {
      baseline.forEach((block, i) => {
        select(block, ["baseline", i], "baseline");
      });
    }
    refs.forEach((ref, i) => {
      const block = byKey.get(lookupKey(ref));
      if (block === undefined) {
        const versions = systemBlocks.filter((b) => b.id === ref.id).map((b) => String(b.version));
        const known = versions.length > 0 ? `; known versions: ${versions.join(", ")}` : "";
        issues.push({
          code: "unknown_driver_block",
          message: `driverBlockRefs[${i}] names unknown system block ${refKey(ref)}${known}`,
          path: ["driverBlockRefs", i],
        });
        return;
      }
      select(block, ["driverBlockRefs", i], `driverBlockRefs[${i}]`);
    });
    inline.forEach((raw, i) => {
      const parsed = DriverBlock.safeParse(raw);
      if (!parsed.success) {
        for (const issue of parsed.error.issues) {
          issues.push({
            code: "invalid_driver_block",
            message: `driverBlockInline[${i}]: ${issue.message}`,
            path: ["driverBlockInline", i, ...issue.path.map((p) => (typeof p === "symbol" ? String(p) : p))],
          });
        }
        return;
      }
      // A packet cannot mint system blocks: inline blocks are always user scope.
      select({ ...parsed.data, scope: "user" }, ["driverBlockInline", i], `driverBlockInline[${i}]`);
    });
    if (nonBaseline > frozenLimits.maxNonBaselineBlocks) {
      issues.push(
        limitIssue(
          "maxNonBaselineBlocks",
          frozenLimits.maxNonBaselineBlocks,
          nonBaseline,
          [],
          `this turn selects ${nonBaseline} non-baseline driver blocks; the limit is ${frozenLimits.maxNonBaselineBlocks}`,
        ),
      );
    }
    if (issues.length > 0) return fail(...issues);

    const skipped: SkippedBlock[] = [];
    const applicable = selected.filter(({ block }) => {
      if (appliesToMode(block, request.modeLabel)) return true;
      skipped.push({ id: block.id, version: block.version, reason: "not_for_mode" });
      return false;
    });
    // A bad pattern makes a block invalid whatever the mode: check the skipped blocks' patterns too, so
    // the answer does not depend on routing (the server checks a packet before it routes the turn).
    if (skipped.length > 0) {
      const checked = compileSelectedBlocks(selected);
      if (!checked.ok) return checked;
    }
    return compileSelectedBlocks(applicable, { driverBlockMode: mode, skipped });
  };

  return Object.freeze({
    limits: frozenLimits,
    systemBlocks,
    baselineRefs: deepFreeze(baseline.map((b) => ({ id: b.id, version: b.version }))),
    resolve,
  });
}

/**
 * A block with appliesToModes applies only when the routed modeLabel is listed (case-insensitive);
 * without a modeLabel such mode-specific blocks are skipped, since they cannot be shown to apply.
 */
export function appliesToMode(
  block: Pick<DriverBlock, "appliesToModes">,
  modeLabel: string | undefined,
): boolean {
  if (block.appliesToModes === undefined || block.appliesToModes.length === 0) return true;
  if (modeLabel === undefined) return false;
  const wanted = modeLabel.trim().toLowerCase();
  return block.appliesToModes.some((mode) => mode.trim().toLowerCase() === wanted);
}

/** Map key of a ref: the pair itself, so an "@" inside an id or a version cannot join two refs. */
function lookupKey(ref: { readonly id: string; readonly version: DriverBlockVersion }): string {
  return JSON.stringify([ref.id, String(ref.version)]);
}

/** A ref as messages show it: "id@version". */
function refKey(ref: { readonly id: string; readonly version: DriverBlockVersion }): string {
  return `${ref.id}@${String(ref.version)}`;
}

/**
 * The JSON size of an inline block as its sender wrote it. A parsed packet (what the server passes)
 * has the schema's defaults filled in; a field still at its default is not counted, so a block is
 * measured the same whether it comes raw or parsed.
 */
function inlineBytes(block: DriverBlockInput): number {
  if (block === null || typeof block !== "object") return jsonBytes(block);
  const { scope, enforcement, promptConstraints, ...rest } = block;
  return jsonBytes({
    ...rest,
    ...(scope === "user" ? {} : { scope }),
    ...(enforcement === "strict" ? {} : { enforcement }),
    ...(Array.isArray(promptConstraints) && promptConstraints.length === 0 ? {} : { promptConstraints }),
  });
}

function jsonBytes(value: unknown): number {
  try {
    return utf8ByteLength(JSON.stringify(value) ?? "");
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

function limitIssue(
  name: keyof PolicyLimits,
  max: number,
  actual: number,
  path: ReadonlyArray<string | number>,
  message: string,
): PolicyIssue {
  return { code: "driver_block_limit", message, path, limit: { name, max, actual } };
}
