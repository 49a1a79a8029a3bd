import { SolError } from "../errors.js";
import { deepFreeze } from "../immutable/deep-freeze.js";
import { parseRouterConfig, type RouterConfig } from "./config.js";
import defaultModes from "./default-modes.json" with { type: "json" };
import { createRouter, type Router } from "./router.js";

function loadDefaultPack(): RouterConfig {
  const parsed = parseRouterConfig(defaultModes);
  // The shipped pack is covered by tests; failing here means the JSON file was edited badly.
  if (!parsed.ok) throw new SolError("internal", "default-modes.json is invalid", { details: parsed.issues });
  return deepFreeze(parsed.value);
}

/** The shipped personal-assistant mode pack: "assist" (default), "companion" and high-rigor "system". */
export const DEFAULT_MODE_PACK: RouterConfig = loadDefaultPack();

/** A router over the default mode pack. */
export function createDefaultRouter(): Router {
  return createRouter(DEFAULT_MODE_PACK);
}
