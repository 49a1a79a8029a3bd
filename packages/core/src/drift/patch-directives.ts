import type { Violation } from "../contracts/chat-response.js";

/** Cap on directives so a regeneration prompt stays a small delta. */
export const MAX_PATCH_DIRECTIVES = 12;

/**
 * Targeted instructions for the one regeneration (S5): one line per distinct violation, strict
 * first, each naming its source. Violation messages are written as fixes, so they are reused.
 */
export function buildPatchDirectives(violations: readonly Violation[]): string[] {
  const ordered = [
    ...violations.filter((v) => v.enforcement === "strict"),
    ...violations.filter((v) => v.enforcement === "warn"),
  ];
  const directives = ordered.map((v) => `Fix [${v.source}] ${v.code}: ${v.message}`);
  return [...new Set(directives)].slice(0, MAX_PATCH_DIRECTIVES);
}
