import { PromptModule, PromptModuleKind, PromptProfile } from "../../src/contracts/prompt-profile.js";
import { validPromptProfile } from "../fixtures/valid-contracts.js";
import { bad, type ContractCase, many, missing, str, unknownKey } from "./helpers.js";

const profile = validPromptProfile();
const module = profile.modules[0];

export const promptProfileCases: Record<string, ContractCase> = {
  PromptModuleKind: {
    schema: PromptModuleKind,
    valid: ["mounted_law", "mode_contract", "style", "output_constraints"],
    invalid: [bad("unknown kind", null, [], "persona")],
  },
  PromptModule: {
    schema: PromptModule,
    valid: [module],
    invalid: [
      bad("id over 64", module, ["id"], str(65)),
      bad("version over 32", module, ["version"], str(33)),
      bad("version a number", module, ["version"], 1),
      bad("unknown kind", module, ["kind"], "persona"),
      bad("empty content", module, ["content"], ""),
      bad("content over 20000", module, ["content"], str(20_001)),
      unknownKey(module),
    ],
  },
  PromptProfile: {
    schema: PromptProfile,
    valid: [profile],
    invalid: [
      bad("empty profileId", profile, ["profileId"], ""),
      bad("no modules", profile, ["modules"], []),
      bad("modules over 64", profile, ["modules"], many(65, module)),
      bad("module kind unknown", profile, ["modules", 0, "kind"], "persona"),
      missing(profile, ["modules"]),
      unknownKey(profile),
    ],
  },
};
