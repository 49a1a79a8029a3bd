import { type PromptModuleKind, PromptProfile } from "../contracts/prompt-profile.js";
import { fail, type Issue, ok, type Result } from "../result.js";
import { DEFAULT_MOUNTED_LAW } from "./default-law.js";
import { DEFAULT_PROMPT_PROFILE } from "./default-profile.js";
import { type LawRegistry, type MountedLaw, mountLaw } from "./law-registry.js";

/** A prompt profile ready for assembly: its law and the modules a mode's clusterIds can turn on. */
export interface MountedProfile {
  readonly profileId: string;
  readonly extends?: string;
  readonly law: MountedLaw;
  /** The profile's other modules (its base's first, replaced by id), in order. */
  readonly modules: readonly MountedLaw[];
}

/** What a trace records of one module of a prompt. */
export interface PromptModuleRef {
  readonly id: string;
  readonly version: string;
  readonly kind: PromptModuleKind;
  readonly hash: string;
}

/** The profiles of a deployment, validated and hashed at start. */
export interface ProfileRegistry {
  readonly profiles: readonly MountedProfile[];
  get(profileId: string): MountedProfile | undefined;
  /** Every distinct module (id@version) of every profile, for lookups by a trace's refs. */
  readonly modules: LawRegistry;
}

/** One profile to register and where it came from (a file name), for error messages. */
export interface ProfileSource {
  readonly source: string;
  readonly profile: unknown;
}

// Contract first, then style, then output constraints: the constraints sit nearest the runtime deltas.
const KIND_ORDER: readonly PromptModuleKind[] = ["mode_contract", "style", "output_constraints"];

/**
 * Builds the registry: the built-in profile first, then `sources` in order (a profile may extend an
 * earlier one). Fails with issues naming the source and field of each problem.
 */
export function createProfileRegistry(sources: readonly ProfileSource[] = []): Result<ProfileRegistry> {
  const issues: Issue[] = [];
  const profiles: MountedProfile[] = [];
  const byKey = new Map<string, MountedLaw>();
  const all: ProfileSource[] = [{ source: "built-in", profile: DEFAULT_PROMPT_PROFILE }, ...sources];
  for (const { source, profile } of all) {
    const mounted = mountProfile(source, profile, profiles, byKey);
    if (mounted.ok) profiles.push(mounted.value);
    else issues.push(...mounted.issues);
  }
  if (issues.length > 0) return fail(...issues);
  const entries = Object.freeze([...byKey.values()]);
  return ok(
    Object.freeze({
      profiles: Object.freeze(profiles),
      get: (profileId: string) => profiles.find((p) => p.profileId === profileId),
      modules: Object.freeze({
        entries,
        get: (id: string, version?: string) =>
          entries.find((e) => e.id === id && (version === undefined || e.version === version)),
        findByHash: (hash: string) => {
          const wanted = hash.startsWith("sha256:") ? hash : `sha256:${hash}`;
          return entries.find((e) => e.hash === wanted);
        },
      }),
    }),
  );
}

function mountProfile(
  source: string,
  raw: unknown,
  earlier: readonly MountedProfile[],
  byKey: Map<string, MountedLaw>,
): Result<MountedProfile> {
  const parsed = PromptProfile.safeParse(raw);
  if (!parsed.success) {
    return fail(
      ...parsed.error.issues.map((i) => issue(source, fieldPath(i.path), i.message, "invalid_input", i.path)),
    );
  }
  const { profileId, modules } = parsed.data;
  const issues: Issue[] = [];
  if (earlier.some((p) => p.profileId === profileId))
    issues.push(issue(source, "profileId", `profile "${profileId}" is defined twice`, "conflict"));
  const base =
    parsed.data.extends === undefined ? undefined : earlier.find((p) => p.profileId === parsed.data.extends);
  if (parsed.data.extends !== undefined && base === undefined)
    issues.push(issue(source, "extends", `no earlier profile "${parsed.data.extends}"`));
  const own: MountedLaw[] = [];
  modules.forEach((m, i) => {
    const field = `modules[${i}]`;
    if (modules.findIndex((o) => o.id === m.id) !== i) {
      issues.push(issue(source, `${field}.id`, `module "${m.id}" repeats in this profile`, "conflict"));
      return;
    }
    const mounted = mountLaw(m);
    const key = `${m.id}@${m.version}`;
    const known = byKey.get(key);
    if (known !== undefined && (known.hash !== mounted.hash || known.kind !== mounted.kind)) {
      const message = `${key} differs from the module of that version already registered; bump its version`;
      issues.push(issue(source, `${field}.content`, message, "conflict"));
      return;
    }
    own.push(known ?? mounted);
  });
  const laws = own.filter((m) => m.kind === "mounted_law");
  if (laws.length > 1)
    issues.push(issue(source, "modules", "a profile has at most one mounted_law module", "conflict"));
  if (issues.length > 0) return fail(...issues);
  for (const m of own) byKey.set(`${m.id}@${m.version}`, m);
  const law = laws[0] ?? base?.law ?? mountLaw(DEFAULT_MOUNTED_LAW);
  byKey.set(`${law.id}@${law.version}`, byKey.get(`${law.id}@${law.version}`) ?? law);
  const ownIds = new Set(own.map((m) => m.id));
  const inherited = (base?.modules ?? []).filter((m) => !ownIds.has(m.id));
  return ok(
    Object.freeze({
      profileId,
      ...(parsed.data.extends === undefined ? {} : { extends: parsed.data.extends }),
      law,
      modules: Object.freeze([...inherited, ...own.filter((m) => m.kind !== "mounted_law")]),
    }),
  );
}

/** The modules a ModeDecision's clusterIds turn on, in prompt order; ids naming no module are skipped. */
export function selectPromptModules(
  modules: readonly MountedLaw[],
  clusterIds: readonly string[],
): readonly MountedLaw[] {
  const rank = (m: MountedLaw) => KIND_ORDER.indexOf(m.kind) * 100 + clusterIds.indexOf(m.id);
  return modules
    .filter((m) => m.kind !== "mounted_law" && clusterIds.includes(m.id))
    .sort((a, b) => rank(a) - rank(b));
}

/** The trace reference of a mounted module. */
export function promptModuleRef(m: MountedLaw): PromptModuleRef {
  return Object.freeze({ id: m.id, version: m.version, kind: m.kind, hash: m.hash });
}

/**
 * The law and modules a trace's refs name, looked up by id@version and checked against their hash:
 * what assemblePrompt needs to rebuild that prompt. Fails when a module is unknown or its content changed.
 */
export function modulesFromRefs(
  registry: ProfileRegistry,
  refs: readonly PromptModuleRef[],
): Result<{ readonly law: MountedLaw; readonly modules: readonly MountedLaw[] }> {
  const found: MountedLaw[] = [];
  const issues: Issue[] = [];
  refs.forEach((ref, i) => {
    const m = registry.modules.get(ref.id, ref.version);
    if (m === undefined || m.hash !== ref.hash)
      issues.push(
        issue(
          "trace",
          `modules[${i}]`,
          `${ref.id}@${ref.version} (${ref.hash}) is not registered`,
          "not_found",
        ),
      );
    else found.push(m);
  });
  const law = found.find((m) => m.kind === "mounted_law");
  if (law === undefined && issues.length === 0)
    issues.push(issue("trace", "modules", "no mounted_law module"));
  if (issues.length > 0 || law === undefined) return fail(...issues);
  return ok({ law, modules: found.filter((m) => m !== law) });
}

function issue(
  source: string,
  field: string,
  message: string,
  code = "invalid_input",
  path?: readonly PropertyKey[],
): Issue {
  return {
    code,
    message: `${source}: ${field}: ${message}`,
    ...(path ? { path: path.filter((p): p is string | number => typeof p !== "symbol") } : {}),
  };
}

function fieldPath(path: readonly PropertyKey[]): string {
  return (
    path
      .map((key) => (typeof key === "number" ? `[${key}]` : `.${String(key)}`))
      .join("")
      .replace(/^\./, "") || "(root)"
  );
}
