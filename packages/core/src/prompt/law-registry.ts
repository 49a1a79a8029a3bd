import { PromptModule } from "../contracts/prompt-profile.js";
import { sha256Hex } from "../hash/sha256.js";
import { deepFreeze } from "../immutable/deep-freeze.js";
import { fail, type Issue, ok, type Result } from "../result.js";

/** A prompt module mounted for use: its content hash makes a prompt reproducible from a trace. */
export interface MountedLaw {
  readonly id: string;
  readonly version: string;
  readonly kind: PromptModule["kind"];
  readonly content: string;
  /** "sha256:" + hex SHA-256 of `content` (UTF-8). */
  readonly hash: string;
}

/** Versioned, content-hashed prompt modules. */
export interface LawRegistry {
  readonly entries: readonly MountedLaw[];
  /** The module with this id: the given version, or the highest version when omitted. */
  get(id: string, version?: string): MountedLaw | undefined;
  /** The module whose content has this hash (with or without the "sha256:" prefix). */
  findByHash(hash: string): MountedLaw | undefined;
}

/** Mounts one module: validates it and computes its content hash. */
export function mountLaw(module: PromptModule): MountedLaw {
  return Object.freeze({
    id: module.id,
    version: module.version,
    kind: module.kind,
    content: module.content,
    hash: `sha256:${sha256Hex(module.content)}`,
  });
}

/** Builds a registry from prompt modules; fails on an invalid module or a repeated id@version. */
export function createLawRegistry(modules: readonly unknown[]): Result<LawRegistry> {
  const issues: Issue[] = [];
  const entries: MountedLaw[] = [];
  modules.forEach((raw, i) => {
    const parsed = PromptModule.safeParse(raw);
    if (!parsed.success) {
      issues.push({
        code: "invalid_input",
        message: `modules[${i}]: ${parsed.error.issues[0]?.message}`,
        path: [i],
      });
      return;
    }
    const module = parsed.data;
    if (entries.some((e) => e.id === module.id && e.version === module.version)) {
      issues.push({
        code: "conflict",
        message: `modules[${i}] repeats ${module.id}@${module.version}`,
        path: [i],
      });
      return;
    }
    entries.push(mountLaw(module));
  });
  if (issues.length > 0) return fail(...issues);
  const frozen = deepFreeze(entries);
  return ok(
    Object.freeze({
      entries: frozen,
      get(id: string, version?: string) {
        const candidates = frozen.filter(
          (e) => e.id === id && (version === undefined || e.version === version),
        );
        return candidates.reduce<MountedLaw | undefined>(
          (best, e) => (best === undefined || compareLawVersions(e.version, best.version) > 0 ? e : best),
          undefined,
        );
      },
      findByHash(hash: string) {
        const wanted = hash.startsWith("sha256:") ? hash : `sha256:${hash}`;
        return frozen.find((e) => e.hash === wanted);
      },
    }),
  );
}

/** Compares dotted versions part by part, numerically where both parts are numbers. */
export function compareLawVersions(a: string, b: string): number {
  const pa = a.split(".");
  const pb = b.split(".");
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = pa[i] ?? "0";
    const y = pb[i] ?? "0";
    const nx = /^\d+$/.test(x) ? Number(x) : Number.NaN;
    const ny = /^\d+$/.test(y) ? Number(y) : Number.NaN;
    const diff = Number.isNaN(nx) || Number.isNaN(ny) ? (x < y ? -1 : x > y ? 1 : 0) : nx - ny;
    if (diff !== 0) return Math.sign(diff);
  }
  return 0;
}
