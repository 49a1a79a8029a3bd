export type { ModeDefinitionInput, RouterConfigInput } from "./config.js";
export {
  DEFAULT_ROUTER_CONFIDENCE_THRESHOLD,
  ModeDefinition,
  ModeRigor,
  parseModePack,
  parseRouterConfig,
  RouterConfig,
  RouterThread,
} from "./config.js";
export { createDefaultRouter, DEFAULT_MODE_PACK } from "./default-pack.js";
export type { RouteExplanation, RouteInput, Router, RouterCalibration } from "./router.js";
export { createRouter } from "./router.js";
export type { SelectorPromptInput, SelectorReplyOptions, SelectorReplyResult } from "./selector.js";
export {
  buildSelectorPrompt,
  parseSelectorReply,
  SELECTOR_DEFAULT_CONFIDENCE,
  unfenceReply,
} from "./selector.js";
export type { RouteCandidate } from "./step-one.js";
export type { ClassifierTuning } from "./tuning.js";
export { ROUTER_VERSION } from "./version.js";
