// "System ops" intent: the user operating the assistant itself (memory, settings, modes, checkpoints),
// not asking about the world. Patterns run on the canonical token string (lowercase words, one space)
// and only allow determiners between the verb and its object, so "clear my browser history" or
// "show me the rules of chess" stay ordinary requests.
const DET = "(?: (?:my|the|this|our|your|all|of|current|active|entire|whole))*";
const STORES =
  "memory|memories|history|context|thread|threads|conversation|conversations|chat|settings|preferences|data";
const SYSTEM_OPS_PATTERNS: readonly RegExp[] = [
  new RegExp(`\\b(?:reset|clear|wipe|erase|delete|purge)${DET} (?:${STORES})\\b`),
  /\bforget (?:everything|all of (?:this|that|it)|this conversation|what i (?:said|told you))\b/,
  new RegExp(
    `\\b(?:show|list|display|print)(?: me)?${DET} (?:settings|config|configuration|preferences|modes|memory|memories|checkpoints|driver blocks?)\\b`,
  ),
  /\b(?:show|list|what are|whats|what is|tell me)(?: me)? your (?:rules|settings|config|configuration|modes|status|version)\b/,
  /\bwhat mode (?:are you|is this|am i|is active)\b/,
  /\b(?:what|everything|anything)(?: else)? (?:do |did |have )?you (?:remember|know|saved|stored|kept|have (?:saved|stored|kept)) (?:about|on) me\b/,
  new RegExp(`\\b(?:export|backup|back up|restore|import|sync)${DET} (?:${STORES})\\b`),
  /\b(?:change|update|set|configure|adjust) (?:your (?:settings|config|configuration|preferences|rules|model|provider)|the system prompt)\b/,
  /\b(?:run (?:a )?(?:diagnostics?|health check|self test)|selftest|self diagnostic)\b/,
  /\b(?:re anchor|reanchor|replay the thread|(?:create|make|save|write|add|set) (?:a )?checkpoint)\b/,
  /^checkpoint\b/,
  /\bwhat (?:s|is|has been|have we|did we|was) decided\b/,
];

const SLASH_COMMANDS = /^\s*\/(?:status|reset|settings|config|checkpoint|export|diagnostics|system)\b/;

/** Returns a short description of the system-ops intent found, or null. */
export function detectSystemOps(normalized: string, canonical: string): string | null {
  const slash = SLASH_COMMANDS.exec(normalized);
  if (slash) return `command "${slash[0].trim()}"`;
  for (const pattern of SYSTEM_OPS_PATTERNS) {
    const match = pattern.exec(canonical);
    if (match) return `"${match[0]}"`;
  }
  return null;
}
