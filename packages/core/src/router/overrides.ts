import type { ModeDefinition } from "./config.js";
import { buildDomainIndex, DOMAIN_NAMES, type DomainHit, detectDomains } from "./domains.js";
import type { TextFeatures } from "./features.js";
import { detectSystemOps } from "./system-ops.js";
import { canonicalPhrase } from "./text.js";

export type OverrideKind = "mode_request" | "call_word" | "system_ops" | "domain";

/** A step-0 hard override: which mode, why, and which trigger kind fired. */
export interface Override {
  readonly modeIndex: number;
  readonly kind: OverrideKind;
  readonly reason: string;
}

/** Step-0 result: the override (if any) and the high-rigor domains found (only routable ones). */
export interface OverrideResult {
  readonly override: Override | null;
  readonly domains: readonly DomainHit[];
}

export interface OverrideRules {
  detect(features: TextFeatures): OverrideResult;
}

const SLASH_MODE_HEAD = /^\s*\/mode(?=\s)/;
const LINE_BREAK = /[\n\r\u2028\u2029]/;
const SLASH_WORD = /^\s*\/([^\s/]+)\s*$/;
const SYSTEM_LABEL = "system";

/** Compiles the step-0 rules of a mode list: mode requests, call words, system ops, domain triggers. */
export function compileOverrides(modes: readonly ModeDefinition[]): OverrideRules {
  const aliases = buildAliases(modes);
  const requestPatterns = buildRequestPatterns([...aliases.keys()]);
  const systemIndex = modes.findIndex((mode) => canonicalPhrase(mode.label) === SYSTEM_LABEL);
  const domainTargets = DOMAIN_NAMES.map((domain) => domainTarget(modes, domain));
  const domainIndex = buildDomainIndex();

  const modeRequest = (features: TextFeatures): Override | null => {
    const text = features.normalized;
    const slash = slashModeName(text) ?? SLASH_WORD.exec(text)?.[1];
    const requested = slash === undefined ? undefined : aliases.get(canonicalPhrase(slash));
    if (requested !== undefined) {
      return {
        modeIndex: requested,
        kind: "mode_request",
        reason: `step 0: mode command "${text.trim()}"`,
      };
    }
    const canonical = features.tokens.join(" ");
    for (const pattern of requestPatterns) {
      const match = pattern.exec(canonical);
      const index = match ? aliases.get(match[1] ?? "") : undefined;
      if (match && index !== undefined) {
        return {
          modeIndex: index,
          kind: "mode_request",
          reason: `step 0: mode request "${match[0].trim()}"`,
        };
      }
    }
    return null;
  };

  const callWord = (features: TextFeatures): Override | null => {
    let best: (typeof features.hits)[number] | undefined;
    for (const hit of features.hits) {
      if (hit.kind !== "callWord") continue;
      if (
        !best ||
        hit.position < best.position ||
        (hit.position === best.position && hit.text.length > best.text.length)
      )
        best = hit;
    }
    return best
      ? { modeIndex: best.modeIndex, kind: "call_word", reason: `step 0: call word "${best.text}"` }
      : null;
  };

  return {
    detect(features) {
      const domains = detectDomains(domainIndex, features.tokens, features.cues).filter(
        (hit) => (domainTargets[DOMAIN_NAMES.indexOf(hit.domain)] ?? -1) >= 0,
      );
      let override = modeRequest(features) ?? callWord(features);
      if (override === null && systemIndex >= 0) {
        const ops = detectSystemOps(features.normalized, features.tokens.join(" "));
        if (ops !== null)
          override = { modeIndex: systemIndex, kind: "system_ops", reason: `step 0: system ops ${ops}` };
      }
      const first = domains[0];
      if (override === null && first !== undefined) {
        const target = domainTargets[DOMAIN_NAMES.indexOf(first.domain)] ?? -1;
        override = {
          modeIndex: target,
          kind: "domain",
          reason: `step 0: ${first.domain} trigger "${first.term}"${first.cue === undefined ? "" : ` with "${first.cue}"`}`,
        };
      }
      return { override, domains };
    },
  };
}

/**
 * The name a `/mode <name>` command gives, or undefined: what `/^\s*\/mode\s+(.+?)\s*$/` captures,
 * found in linear time. That pattern's three adjacent whitespace-matching runs backtracked cubically
 * when a line break followed a long run of whitespace, so one 20,000-character message held the event
 * loop for many minutes. The name is the rest of the line trimmed, and it may not span a line break.
 */
export function slashModeName(text: string): string | undefined {
  const head = SLASH_MODE_HEAD.exec(text);
  if (head === null) return undefined;
  const rest = text.slice(head[0].length);
  const name = rest.trim();
  if (name !== "") return LINE_BREAK.test(name) ? undefined : name;
  // Only whitespace follows: the pattern still matches when a character after the first is not a
  // line break, capturing the last such whitespace character (a name no mode has).
  for (let i = rest.length - 1; i >= 1; i--) {
    const ch = rest.charAt(i);
    if (!LINE_BREAK.test(ch)) return ch;
  }
  return undefined;
}

// Each mode answers to its canonical label and, when the label ends in "mode", to the rest of it
// ("whisper_mode" is requested as "whisper mode"). Full labels win over shortened ones, and when
// two labels share a canonical form ("Music", "music") the first mode keeps it.
function buildAliases(modes: readonly ModeDefinition[]): Map<string, number> {
  const aliases = new Map<string, number>();
  const labels = modes.map((mode) => canonicalPhrase(mode.label));
  labels.forEach((label, index) => {
    if (!aliases.has(label)) aliases.set(label, index);
  });
  labels.forEach((label, index) => {
    const base = label.endsWith(" mode") ? label.slice(0, -" mode".length) : "";
    if (base && !aliases.has(base)) aliases.set(base, index);
  });
  return aliases;
}

function buildRequestPatterns(aliases: readonly string[]): RegExp[] {
  if (aliases.length === 0) return [];
  const sorted = [...aliases].sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
  const alias = `(${sorted.map((a) => a.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})`;
  const verbs =
    "(?:switch|change|go|move|jump|flip|get|come|return|swap)(?: back)? (?:in)?to|use|enter|activate|start|enable|turn on|try|be in|stay in|put (?:me|us|yourself|it) (?:in|into|on)|lets (?:go|switch|use)(?: (?:in)?to)?";
  return [
    new RegExp(`(?:^| )(?:${verbs})(?: the)? ${alias} mode(?= |$)`),
    new RegExp(`(?:^| )(?:turn|switch|flip|put) ${alias} mode on(?= |$)`),
    new RegExp(`^(?:please )?${alias} mode(?: please| now| on)?$`),
    new RegExp(`^mode ${alias}$`),
  ];
}

// Other spellings of a domain flag, in canonical form: the flow pack writes the governance domain
// "SolOS-governance" (also seen as "solos_governance" or "SolOS governance").
const DOMAIN_FLAG_ALIASES: Readonly<Record<string, readonly string[]>> = {
  governance: ["solos governance"],
};

/** True when a mode's domain flag names the domain, in any case and with "-", "_" or spaces. */
function flagNamesDomain(flag: string, domain: string): boolean {
  const canonical = canonicalPhrase(flag);
  return canonical === domain || (DOMAIN_FLAG_ALIASES[domain] ?? []).includes(canonical);
}

// A domain routes to the high-rigor mode that declares it, else to any mode that declares it (the
// pack's own mode for that domain, whatever its rigor), else to a high-rigor mode that declares no
// domain at all (a general one such as "system"); otherwise the trigger is not used.
function domainTarget(modes: readonly ModeDefinition[], domain: string): number {
  const indexed = modes.map((mode, index) => ({ mode, index }));
  const declares = ({ mode }: { mode: ModeDefinition }) =>
    (mode.domainFlags ?? []).some((flag) => flagNamesDomain(flag, domain));
  const high = ({ mode }: { mode: ModeDefinition }) => mode.rigor?.level === "high";
  const target =
    indexed.find((m) => high(m) && declares(m)) ??
    indexed.find(declares) ??
    indexed.find((m) => high(m) && (m.mode.domainFlags ?? []).length === 0);
  return target ? target.index : -1;
}
