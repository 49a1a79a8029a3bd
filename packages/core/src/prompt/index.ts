export type { AssembledPrompt, AssemblePromptInput, WindowMessage } from "./assemble.js";
export { assemblePrompt, DEFAULT_WINDOW_SIZE, hashPromptMessages, renderRuntimeDeltas } from "./assemble.js";
export { DEFAULT_MOUNTED_LAW } from "./default-law.js";
export { DEFAULT_PROFILE_ID, DEFAULT_PROMPT_PROFILE } from "./default-profile.js";
export { ENVELOPE_INSTRUCTIONS, ENVELOPE_VERSION } from "./envelope-instructions.js";
export type { EnvelopeStreamMode, EnvelopeStreamParser } from "./envelope-stream.js";
export { ASSISTANT_TEXT_ALIASES, createEnvelopeStreamParser } from "./envelope-stream.js";
export type { LawRegistry, MountedLaw } from "./law-registry.js";
export { compareLawVersions, createLawRegistry, mountLaw } from "./law-registry.js";
export { MEMENTO_LIST_LIMIT, renderMementoSummary } from "./memento-summary.js";
export type { ModelOutputParse, ParsedModelOutput } from "./parse-output.js";
export { parseModelOutput } from "./parse-output.js";
export type { MountedProfile, ProfileRegistry, ProfileSource, PromptModuleRef } from "./profile-registry.js";
export {
  createProfileRegistry,
  modulesFromRefs,
  promptModuleRef,
  selectPromptModules,
} from "./profile-registry.js";
