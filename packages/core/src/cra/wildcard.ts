/**
 * Matches an action name against a pattern where `*` stands for any run of characters
 * (`delete_*`, `*_file`, `*`). Comparison ignores case so `DELETE_user` cannot slip past
 * a `delete_*` rule. Runs in O(pattern + value) per literal segment (no backtracking).
 */
export function matchesWildcard(pattern: string, value: string): boolean {
  const p = pattern.toLowerCase();
  const v = value.toLowerCase();
  if (!p.includes("*")) return p === v;
  const parts = p.split("*");
  const first = parts[0] as string;
  const last = parts[parts.length - 1] as string;
  if (v.length < first.length + last.length) return false;
  if (!v.startsWith(first) || !v.endsWith(last)) return false;
  let at = first.length;
  const stop = v.length - last.length;
  for (let i = 1; i < parts.length - 1; i++) {
    const part = parts[i] as string;
    if (part.length === 0) continue;
    const found = v.indexOf(part, at);
    if (found < 0 || found + part.length > stop) return false;
    at = found + part.length;
  }
  return true;
}

/** How specific a pattern is: its literal length (an exact name beats any wildcard). */
export function wildcardSpecificity(pattern: string): number {
  return pattern.includes("*") ? pattern.replaceAll("*", "").length : Number.MAX_SAFE_INTEGER;
}
