import { describe, expect, it } from "vitest";
import { z } from "zod";
import * as contracts from "../src/contracts/index.js";
import { actionCases } from "./contracts/action.cases.js";
import { affectCases } from "./contracts/affect.cases.js";
import { chatResponseCases } from "./contracts/chat-response.cases.js";
import { driverBlockCases } from "./contracts/driver-block.cases.js";
import { envelopeCases } from "./contracts/envelope.cases.js";
import { executedRecordCases } from "./contracts/executed-records.cases.js";
import type { ContractCase } from "./contracts/helpers.js";
import { mementoCases } from "./contracts/memento.cases.js";
import { memoryCases } from "./contracts/memory.cases.js";
import { modeDecisionCases } from "./contracts/mode-decision.cases.js";
import { packetCases } from "./contracts/packet.cases.js";
import { pinnedContextCases } from "./contracts/pinned-context.cases.js";
import { promptProfileCases } from "./contracts/prompt-profile.cases.js";
import { signalCases } from "./contracts/signals.cases.js";
import { threadCases } from "./contracts/thread.cases.js";
import { traceCases } from "./contracts/trace.cases.js";
import { transmissionCases } from "./contracts/transmission.cases.js";

const cases: Record<string, ContractCase> = {
  ...actionCases,
  ...affectCases,
  ...chatResponseCases,
  ...driverBlockCases,
  ...envelopeCases,
  ...executedRecordCases,
  ...memoryCases,
  ...mementoCases,
  ...modeDecisionCases,
  ...packetCases,
  ...pinnedContextCases,
  ...promptProfileCases,
  ...signalCases,
  ...threadCases,
  ...traceCases,
  ...transmissionCases,
};

const exportedSchemas = (Object.entries(contracts) as [string, unknown][]).filter(
  (entry): entry is [string, z.ZodType] => entry[1] instanceof z.ZodType,
);

describe("contract coverage", () => {
  it("has valid and malformed examples for every schema exported from contracts/", () => {
    expect(exportedSchemas.length).toBeGreaterThan(40);
    const uncovered = exportedSchemas.map(([name]) => name).filter((name) => cases[name] === undefined);
    expect(uncovered).toEqual([]);
    for (const [name, schema] of exportedSchemas) {
      expect(cases[name]?.schema, name).toBe(schema);
      expect(cases[name]?.valid.length, name).toBeGreaterThan(0);
      expect(cases[name]?.invalid.length, name).toBeGreaterThan(0);
    }
  });
});

for (const [name, contract] of Object.entries(cases)) {
  describe(`contract ${name}`, () => {
    it.each(contract.valid.map((input, index) => [index, input] as const))(
      "accepts valid example %i",
      (_, input) => {
        const parsed = contract.schema.safeParse(input);
        expect(parsed.error?.issues).toBeUndefined();
        expect(parsed.success).toBe(true);
      },
    );

    it.each(contract.invalid.map((c) => [c.name, c] as const))(
      "rejects %s with a path-bearing issue",
      (_, c) => {
        const parsed = contract.schema.safeParse(c.input);
        expect(parsed.success).toBe(false);
        const paths = parsed.error?.issues.map((issue) => issue.path) ?? [];
        expect(paths).toContainEqual([...c.path]);
      },
    );
  });
}
