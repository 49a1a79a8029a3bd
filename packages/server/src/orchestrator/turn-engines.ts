import {
  type CheckpointPolicy,
  createCheckpointPolicy,
  createDefaultRouter,
  createPolicyEngine,
  createProfileRegistry,
  createRouter,
  DEFAULT_PROFILE_ID,
  type DriverBlockInput,
  type MountedLaw,
  type MountedProfile,
  type PolicyEngine,
  type ProfileRegistry,
  type ProfileSource,
  type Router,
  type RouterConfigInput,
  SolError,
} from "@solserver/core";
import { memoizePolicyEngine } from "./policy-cache.js";

/** The pure engines one turn runs through; built once at start. */
export interface TurnEngines {
  readonly router: Router;
  readonly policy: PolicyEngine;
  /** The active profile's mounted law (same as profile.law). */
  readonly law: MountedLaw;
  /** The active prompt profile: its law and the modules the modes' clusterIds turn on. */
  readonly profile: MountedProfile;
  readonly profiles: ProfileRegistry;
  readonly checkpointPolicy: CheckpointPolicy;
}

export interface TurnEngineOptions {
  /** A mode pack (already parsed); the built-in personal-assistant pack when absent. */
  readonly modes?: RouterConfigInput;
  /** Extra system Driver Blocks resolvable by ref. */
  readonly extraSystemBlocks?: readonly DriverBlockInput[];
  /** Prompt profiles from SOL_PROFILES (registered after the built-in one). */
  readonly profiles?: readonly ProfileSource[];
  /** The active profile (SOL_PROFILE); by default the only loaded profile, else the built-in one. */
  readonly profileId?: string;
}

/** Builds the router, policy engine, mounted law and checkpoint policy. Bad configuration throws a SolError. */
export function createTurnEngines(options: TurnEngineOptions = {}): TurnEngines {
  const router = options.modes ? createRouter(options.modes) : createDefaultRouter();
  const policy = memoizePolicyEngine(
    createPolicyEngine(
      options.extraSystemBlocks
        ? { systemBlocks: [...defaultSystemBlocks(), ...options.extraSystemBlocks] }
        : {},
    ),
  );
  const { profiles, profile } = activeProfile(options);
  return Object.freeze({
    router,
    policy,
    law: profile.law,
    profile,
    profiles,
    checkpointPolicy: createCheckpointPolicy(),
  });
}

/** Validates and hashes the prompt profiles and picks the active one; a bad profile throws. */
export function activeProfile(options: Pick<TurnEngineOptions, "profiles" | "profileId">): {
  readonly profiles: ProfileRegistry;
  readonly profile: MountedProfile;
} {
  const registry = createProfileRegistry(options.profiles ?? []);
  if (!registry.ok) {
    const list = registry.issues.map((i) => i.message).join("; ");
    throw new SolError("invalid_input", `Invalid prompt profiles: ${list}`, { details: registry.issues });
  }
  const loaded = registry.value.profiles.filter((p) => p.profileId !== DEFAULT_PROFILE_ID);
  const id = options.profileId ?? (loaded.length === 1 ? loaded[0]?.profileId : undefined);
  if (id === undefined && loaded.length > 1)
    throw new SolError(
      "invalid_input",
      "Several prompt profiles are loaded: set SOL_PROFILE to the active one.",
    );
  const profile = registry.value.get(id ?? DEFAULT_PROFILE_ID);
  if (!profile) {
    const known = registry.value.profiles.map((p) => p.profileId).join(", ");
    throw new SolError("invalid_input", `SOL_PROFILE names no profile "${id}" (known: ${known}).`);
  }
  return { profiles: registry.value, profile };
}

function defaultSystemBlocks(): DriverBlockInput[] {
  return [...createPolicyEngine().systemBlocks];
}
