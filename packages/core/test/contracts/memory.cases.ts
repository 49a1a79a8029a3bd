import {
  Memory,
  MemoryCreated,
  MemoryInput,
  MemoryList,
  MemorySourceSchema,
  SaveMemoryPayload,
  TurnRetrieval,
} from "@solserver/core";
import { bad, type ContractCase, missing, unknownKey } from "./helpers.js";

const memory = {
  memoryId: "mem_1",
  text: "Ana collects ceramics",
  summary: "Ana collects ceramics",
  domainFlags: ["family"],
  source: "user",
  createdAt: "2025-01-01T10:00:00.000Z",
  updatedAt: "2025-01-01T10:00:00.000Z",
};
const input = { requestId: "r1", text: "Ana collects ceramics" };
const hit = { memoryId: "mem_1", summary: "Ana", score: 1.5 };

export const memoryCases: Record<string, ContractCase> = {
  MemorySourceSchema: {
    schema: MemorySourceSchema,
    valid: ["user", "import"],
    invalid: [bad("robot", "x", [], "robot")],
  },
  Memory: {
    schema: Memory,
    valid: [memory, { ...memory, threadId: "t1" }],
    invalid: [
      bad("source robot", memory, ["source"], "robot"),
      missing(memory, ["summary"]),
      unknownKey(memory),
    ],
  },
  MemoryInput: {
    schema: MemoryInput,
    valid: [input, { ...input, summary: "s", domainFlags: ["a"], threadId: "t", source: "import" }],
    invalid: [bad("empty text", input, ["text"], ""), missing(input, ["requestId"]), unknownKey(input)],
  },
  MemoryCreated: {
    schema: MemoryCreated,
    valid: [{ memory }],
    invalid: [missing({ memory }, ["memory"]), unknownKey({ memory })],
  },
  MemoryList: {
    schema: MemoryList,
    valid: [{ memories: [] }, { memories: [{ ...memory, score: 2 }] }],
    invalid: [
      bad("score text", { memories: [memory] }, ["memories", 0, "score"], "x"),
      unknownKey({ memories: [] }),
    ],
  },
  TurnRetrieval: {
    schema: TurnRetrieval,
    valid: [{ memories: [] }, { memories: [hit] }],
    invalid: [
      bad("no score", { memories: [hit] }, ["memories", 0, "score"], undefined),
      unknownKey({ memories: [] }),
    ],
  },
  SaveMemoryPayload: {
    schema: SaveMemoryPayload,
    valid: [{ text: "t" }, { text: "t", summary: "s", domainFlags: ["a"] }],
    invalid: [bad("empty text", { text: "t" }, ["text"], ""), missing({ text: "t" }, ["text"])],
  },
};
