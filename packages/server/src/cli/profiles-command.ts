import type { ProfileRegistry } from "@solserver/core";
import { loadConfig, readConfigFile } from "../config/index.js";
import { loadProfileSources } from "../config/profiles.js";
import { createTurnEngines } from "../orchestrator/turn-engines.js";
import { loadModes } from "../server.js";

export interface ProfilesFlags {
  readonly config?: string;
}

/** `sol profiles`: the prompt profiles of this configuration and their modules (a bad profile fails). */
export function runProfiles(flags: ProfilesFlags): void {
  const config = loadConfig({
    env: process.env,
    ...(flags.config ? { file: readConfigFile(flags.config) } : {}),
  });
  const sources = loadProfileSources(config.SOL_PROFILES);
  const modes = loadModes(config.SOL_MODES);
  const engines = createTurnEngines({
    ...(modes ? { modes } : {}),
    ...(sources ? { profiles: sources } : {}),
    ...(config.SOL_PROFILE ? { profileId: config.SOL_PROFILE } : {}),
  });
  process.stdout.write(formatProfiles(engines.profiles, engines.profile.profileId, engines.router.modes));
}

/** The listing: per profile its law and modules (id@version, kind, hash) and the modes whose clusterIds use each. */
export function formatProfiles(
  registry: ProfileRegistry,
  activeId: string,
  modes: readonly { readonly label: string; readonly clusterIds?: readonly string[] | undefined }[],
): string {
  const lines: string[] = [];
  for (const p of registry.profiles) {
    const base = p.extends ? ` (extends ${p.extends})` : "";
    lines.push(`${p.profileId}${base}${p.profileId === activeId ? "  [active]" : ""}`);
    for (const m of [p.law, ...p.modules]) {
      const users =
        m.kind === "mounted_law"
          ? "every mode"
          : modes
              .filter((mode) => (mode.clusterIds ?? []).includes(m.id))
              .map((mode) => mode.label)
              .join(", ") || "no mode";
      lines.push(
        `  ${`${m.id}@${m.version}`.padEnd(24)} ${m.kind.padEnd(18)} ${m.hash.slice(0, 19)}  ${users}`,
      );
    }
  }
  return `${lines.join("\n")}\n`;
}
