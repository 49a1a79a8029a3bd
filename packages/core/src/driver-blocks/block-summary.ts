import type { DriverBlock } from "../contracts/driver-block.js";
import { clipText } from "../text/index.js";

/** Bullets a chip shows at most (breakpoint chip spec: 1–3). */
const MAX_BULLETS = 3;
const MAX_BULLET_CHARS = 200;

const STRICTNESS = { strict: "", warn: " (warnings only)", off: " (off: not checked)" } as const;

const quoted = (items: readonly string[]) => items.map((item) => `"${item}"`).join(", ");

/**
 * What a Driver Block will require of replies, as 1–3 short lines for people (a chip's "What will
 * happen"): the sections, required and must-not patterns, then prompt constraints. Derived from the
 * block itself, so a proposal cannot describe one rule and carry another.
 */
export function describeDriverBlock(block: DriverBlock): string[] {
  const lines: string[] = [];
  const sections = block.outputContract?.requiredSections ?? [];
  if (sections.length > 0) lines.push(`Every reply has a section: ${quoted(sections)}`);
  const required = block.validators?.required ?? [];
  if (required.length > 0) lines.push(`Every reply includes ${quoted(required)}`);
  for (const group of block.validators?.mustHaveAny ?? [])
    lines.push(`Every reply includes one of ${quoted(group)}`);
  const mustNot = block.validators?.mustNot ?? [];
  if (mustNot.length > 0) lines.push(`No reply says ${quoted(mustNot)}`);
  for (const constraint of block.promptConstraints) lines.push(`The assistant is told: ${constraint}`);
  if (lines.length === 0) lines.push(block.description ?? "The block adds no checks.");
  const modes = block.appliesToModes;
  const scoped = modes !== undefined && modes.length > 0 ? ` (in ${modes.join(", ")} mode)` : "";
  const strictness = STRICTNESS[block.enforcement];
  return lines
    .slice(0, MAX_BULLETS)
    .map((line, i) => clipText(i === 0 ? `${line}${scoped}${strictness}` : line, MAX_BULLET_CHARS));
}
