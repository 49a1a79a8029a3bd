import { DriverBlock } from "@solserver/core";
import {
  ActionExpectation,
  DriverBlockEnvelope,
  DriverBlockList,
  DriverBlockOutputContract,
  DriverBlockPatch,
  DriverBlockRef,
  DriverBlockValidators,
  DriverBlockVersion,
  DriverBlockView,
  Enforcement,
} from "../../src/contracts/driver-block.js";
import { validDriverBlock } from "../fixtures/valid-contracts.js";
import { bad, type ContractCase, many, missing, str, unknownKey } from "./helpers.js";

const block = validDriverBlock();
const minimalBlock = { id: "b", version: 1, title: "B" };
// No document names a title, so an inline block written from the specs may leave it out.
const untitledBlock = { id: "u", version: 1, promptConstraints: ["Be brief."] };
const validators = { required: ["a"], mustNot: ["b"], mustHaveAny: [["c", "d"]] };

const view = {
  id: "b",
  version: 1,
  enabled: true,
  hash: "h",
  summary: ["Requires a Summary section"],
  block: minimalBlock,
  createdAt: "2025-01-01T00:00:00.000Z",
  updatedAt: "2025-01-01T00:00:00.000Z",
};

export const driverBlockCases: Record<string, ContractCase> = {
  DriverBlockView: {
    schema: DriverBlockView,
    valid: [view],
    invalid: [bad("version 0", view, ["version"], 0), missing(view, ["enabled"]), unknownKey(view)],
  },
  DriverBlockList: {
    schema: DriverBlockList,
    valid: [{ driverBlocks: [] }, { driverBlocks: [view] }],
    invalid: [unknownKey({ driverBlocks: [] })],
  },
  DriverBlockEnvelope: {
    schema: DriverBlockEnvelope,
    valid: [{ driverBlock: view }],
    invalid: [missing({ driverBlock: view }, ["driverBlock"])],
  },
  DriverBlockPatch: {
    schema: DriverBlockPatch,
    valid: [{ enabled: false }],
    invalid: [bad("enabled text", { enabled: true }, ["enabled"], "yes"), unknownKey({ enabled: true })],
  },
  DriverBlockVersion: {
    schema: DriverBlockVersion,
    valid: ["1", "1.2.0", 0, 7],
    invalid: [
      bad("empty string", null, [], ""),
      bad("string over 32", null, [], str(33)),
      bad("negative", null, [], -1),
      bad("fractional", null, [], 1.5),
    ],
  },
  DriverBlockRef: {
    schema: DriverBlockRef,
    valid: [{ id: "a", version: "1" }],
    invalid: [
      bad("id over 64", { id: "a", version: 1 }, ["id"], str(65)),
      missing({ id: "a", version: 1 }, ["version"]),
      unknownKey({ id: "a", version: 1 }),
    ],
  },
  Enforcement: {
    schema: Enforcement,
    valid: ["strict", "warn", "off"],
    invalid: [bad("unknown enforcement", null, [], "hard")],
  },
  DriverBlockValidators: {
    schema: DriverBlockValidators,
    valid: [validators, {}],
    invalid: [
      bad("required over 20", validators, ["required"], many(21, "a")),
      bad("mustNot pattern over 200", validators, ["mustNot", 0], str(201)),
      bad("mustHaveAny group empty", validators, ["mustHaveAny", 0], []),
      bad("mustHaveAny over 10 groups", validators, ["mustHaveAny"], many(11, ["a"])),
      unknownKey(validators),
    ],
  },
  DriverBlockOutputContract: {
    schema: DriverBlockOutputContract,
    valid: [{ requiredSections: ["Answer"] }, {}],
    invalid: [
      bad("requiredSections over 10", {}, ["requiredSections"], many(11, "S")),
      bad("section over 80", { requiredSections: ["A"] }, ["requiredSections", 0], str(81)),
      // A blank name is never found in a reply: the block would fail every reply.
      bad("blank section", { requiredSections: ["A"] }, ["requiredSections", 0], " \t "),
      unknownKey({}),
    ],
  },
  ActionExpectation: {
    schema: ActionExpectation,
    valid: [{ when: "w", require: "r" }],
    invalid: [
      bad("empty when", { when: "w", require: "r" }, ["when"], ""),
      bad("require over 200", { when: "w", require: "r" }, ["require"], str(201)),
      unknownKey({ when: "w", require: "r" }),
    ],
  },
  DriverBlock: {
    schema: DriverBlock,
    valid: [block, minimalBlock, untitledBlock],
    invalid: [
      bad("empty id", block, ["id"], ""),
      bad("empty title", block, ["title"], ""),
      bad("id over 64", block, ["id"], str(65)),
      bad("version negative", block, ["version"], -2),
      bad("title over 120", block, ["title"], str(121)),
      missing(block, ["id"]),
      bad("unknown scope", block, ["scope"], "global"),
      bad("unknown enforcement", block, ["enforcement"], "hard"),
      bad("description over 1000", block, ["description"], str(1001)),
      bad("appliesToModes over 16", block, ["appliesToModes"], many(17, "m")),
      bad("promptConstraints over 10", block, ["promptConstraints"], many(11, "c")),
      bad("promptConstraint over 500", block, ["promptConstraints", 0], str(501)),
      bad("outputContract unknown key", block, ["outputContract"], { extra: 1 }),
      bad("validators required not array", block, ["validators", "required"], "a"),
      bad("actionExpectations over 10", block, ["actionExpectations"], many(11, { when: "w", require: "r" })),
      unknownKey(block),
      unknownKey(block, ["validators"]),
    ],
  },
};
