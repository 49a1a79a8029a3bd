import type { DriverBlock } from "../contracts/driver-block.js";
import { deepFreeze } from "../immutable/deep-freeze.js";
import { fail, ok, type Result } from "../result.js";
import { type CompiledPattern, compilePattern, expandSlashAlternatives } from "./patterns.js";
import type {
  ActionRequirement,
  AppliedBlock,
  CompiledActionExpectation,
  CompiledPolicy,
  CompiledValidator,
  PolicyIssue,
  SkippedBlock,
  ValidatorOrigin,
} from "./policy-types.js";
import { sectionLabel } from "./sections.js";

/** A block chosen for this turn with the path of its origin in the request (for issues). */
export interface SelectedBlock {
  readonly block: DriverBlock;
  readonly path: ReadonlyArray<string | number>;
}

/** Options of one compilation: the mode it ran in and the blocks skipped before compiling. */
export interface CompileOptions {
  readonly driverBlockMode?: "default" | "custom";
  readonly skipped?: readonly SkippedBlock[];
}

/** Compiles blocks (already selected and parsed) into one CompiledPolicy; fails on bad patterns. */
export function compileSelectedBlocks(
  selected: readonly SelectedBlock[],
  options: CompileOptions = {},
): Result<CompiledPolicy, PolicyIssue> {
  const issues: PolicyIssue[] = [];
  const constraints: string[] = [];
  const sections: string[] = [];
  const validators: CompiledValidator[] = [];
  const expectations: CompiledActionExpectation[] = [];
  const blocks: AppliedBlock[] = [];

  const pattern = (source: string, path: ReadonlyArray<string | number>): CompiledPattern | null => {
    const compiled = compilePattern(source, path);
    if (compiled.ok) return compiled.value;
    for (const issue of compiled.issues) issues.push({ ...issue, code: "invalid_driver_block" });
    return null;
  };

  for (const { block, path } of selected) {
    const origin: ValidatorOrigin = {
      blockId: block.id,
      blockVersion: block.version,
      source: `driver-block:${block.id}@${block.version}`,
      enforcement: block.enforcement,
    };
    blocks.push({ id: block.id, version: block.version, enforcement: block.enforcement, scope: block.scope });
    constraints.push(...block.promptConstraints);

    const v = block.validators ?? {};
    (v.required ?? []).forEach((source, i) => {
      const compiled = pattern(source, [...path, "validators", "required", i]);
      if (compiled === null) return;
      validators.push({ ...origin, kind: "required", pattern: compiled });
      constraints.push(`Always include ${quoteAlternatives(source)}.`);
    });
    const forbidden: string[] = [];
    (v.mustNot ?? []).forEach((source, i) => {
      const compiled = pattern(source, [...path, "validators", "mustNot", i]);
      if (compiled === null) return;
      validators.push({ ...origin, kind: "must_not", pattern: compiled });
      forbidden.push(...expandSlashAlternatives(source));
    });
    // One line per block keeps the prompt small however many forbidden phrases a block lists.
    if (forbidden.length > 0) constraints.push(`Never write ${quoteList(forbidden)}.`);
    (v.mustHaveAny ?? []).forEach((group, i) => {
      const compiled = group.map((source, j) =>
        pattern(source, [...path, "validators", "mustHaveAny", i, j]),
      );
      if (compiled.some((c) => c === null)) return;
      validators.push({ ...origin, kind: "must_have_any", patterns: compiled as CompiledPattern[] });
      constraints.push(`Include at least one of ${group.map(quoteAlternatives).join(" or ")}.`);
    });
    (block.outputContract?.requiredSections ?? []).forEach((written, i) => {
      const section = sectionLabel(written);
      if (section.length === 0) {
        issues.push({
          code: "invalid_driver_block",
          message: `section "${written}" has no name once its markdown markers are removed`,
          path: [...path, "outputContract", "requiredSections", i],
        });
        return;
      }
      validators.push({ ...origin, kind: "required_section", section });
      if (!sections.includes(section)) sections.push(section);
    });
    (block.actionExpectations ?? []).forEach((expectation, i) => {
      const at = [...path, "actionExpectations", i];
      const when = pattern(expectation.when, [...at, "when"]);
      const requirement = parseRequirement(expectation.require, [...at, "require"], pattern);
      if (when === null || requirement === null) return;
      expectations.push({ ...origin, when, require: expectation.require, requirement });
      const hint = requirementHint(requirement, expectation.require);
      if (hint !== null) constraints.push(`When you write ${quoteAlternatives(expectation.when)}, ${hint}.`);
    });
  }

  if (sections.length > 0) {
    constraints.push(
      `Include these sections, each as its own line starting with the name and a colon: ${sections.map((s) => `"${s}:"`).join(", ")}.`,
    );
  }
  if (issues.length > 0) return fail(...issues);
  return ok(
    deepFreeze<CompiledPolicy>({
      driverBlockMode: options.driverBlockMode ?? "default",
      promptConstraints: [...new Set(constraints)],
      outputContract: { requiredSections: sections },
      validators,
      actionExpectations: expectations,
      blocks,
      skipped: [...(options.skipped ?? [])],
    }),
  );
}

/** Compiles a list of DriverBlocks directly (no selection, no limits): handy for tests and tools. */
export function compileDriverBlocks(
  blocks: readonly DriverBlock[],
  options: CompileOptions = {},
): Result<CompiledPolicy, PolicyIssue> {
  return compileSelectedBlocks(
    blocks.map((block, i) => ({ block, path: ["blocks", i] })),
    options,
  );
}

function parseRequirement(
  require: string,
  path: ReadonlyArray<string | number>,
  pattern: (source: string, path: ReadonlyArray<string | number>) => CompiledPattern | null,
): ActionRequirement | null {
  const trimmed = require.trim();
  const lower = trimmed.toLowerCase();
  if (lower === "receipt") return { kind: "receipt" };
  if (lower === "action_needed" || lower === "action-needed") return { kind: "action_needed" };
  if (lower.startsWith("section:")) {
    const section = sectionLabel(trimmed.slice("section:".length));
    if (section.length > 0) return { kind: "section", section };
  }
  const compiled = pattern(trimmed, path);
  return compiled === null ? null : { kind: "pattern", pattern: compiled };
}

function requirementHint(requirement: ActionRequirement, raw: string): string | null {
  switch (requirement.kind) {
    case "receipt":
      return null;
    case "action_needed":
      return "also propose the action in meta.action_needed";
    case "section":
      return `also include a "${requirement.section}:" section`;
    case "pattern":
      return `also include ${quoteAlternatives(raw)}`;
  }
}

/** Renders a slash pattern for the prompt: "I sent/added" -> "I sent" or "I added" (first 12 shown). */
function quoteAlternatives(source: string): string {
  return quoteList(expandSlashAlternatives(source));
}

function quoteList(phrases: readonly string[], max = 12): string {
  const shown = phrases.slice(0, max).map((phrase) => `"${phrase}"`);
  const more = phrases.length > max ? ` (or ${phrases.length - max} similar)` : "";
  return `${shown.join(" or ")}${more}`;
}
