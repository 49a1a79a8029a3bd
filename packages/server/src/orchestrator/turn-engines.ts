import {
  type CheckpointPolicy,
  createCheckpointPolicy,
  createDefaultRouter,
  createLawRegistry,
  createPolicyEngine,
  createRouter,
  DEFAULT_MOUNTED_LAW,
  type DriverBlockInput,
  type MountedLaw,
  type PolicyEngine,
  type Router,
  type RouterConfigInput,
  SolError,
} from "@solserver/core";
import { memoizePolicyEngine } from "./policy-cache.js";

/** The pure engines one turn runs through; built once at start. */
export interface TurnEngines {
  readonly router: Router;
  readonly policy: PolicyEngine;
  readonly law: MountedLaw;
  readonly checkpointPolicy: CheckpointPolicy;
}

export interface TurnEngineOptions {
  /** A mode pack (already parsed); the built-in personal-assistant pack when absent. */
  readonly modes?: RouterConfigInput;
  /** Extra system Driver Blocks resolvable by ref. */
  readonly extraSystemBlocks?: readonly DriverBlockInput[];
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
  const registry = createLawRegistry([DEFAULT_MOUNTED_LAW]);
  if (!registry.ok)
    throw new SolError("internal", "The default mounted law is invalid.", { details: registry.issues });
  const law = registry.value.get(DEFAULT_MOUNTED_LAW.id);
  if (!law) throw new SolError("internal", "The default mounted law is missing.");
  return Object.freeze({ router, policy, law, checkpointPolicy: createCheckpointPolicy() });
}

function defaultSystemBlocks(): DriverBlockInput[] {
  return [...createPolicyEngine().systemBlocks];
}
