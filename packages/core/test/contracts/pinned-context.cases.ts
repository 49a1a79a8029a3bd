import {
  PinnedContext,
  PinnedContextEnvelope,
  PinnedContextInput,
  ThreadCheckpoint,
  ThreadCheckpointList,
} from "@solserver/core";
import { bad, type ContractCase, missing, unknownKey } from "./helpers.js";

const pinned = {
  id: "house-rules",
  version: 1,
  hash: "a".repeat(64),
  content: "Answer in French.",
  createdAt: "2025-01-01T10:00:00.000Z",
};
const checkpoint = {
  checkpointId: "ckpt_1",
  threadId: "t1",
  version: 2,
  contentHash: "b".repeat(64),
  trigger: ["turn_interval"],
  capsule: "Decisions: sell the house",
  createdAt: "2025-01-01T10:00:00.000Z",
};

export const pinnedContextCases: Record<string, ContractCase> = {
  PinnedContextInput: {
    schema: PinnedContextInput,
    valid: [{ content: "x" }],
    invalid: [bad("empty content", { content: "x" }, ["content"], ""), unknownKey({ content: "x" })],
  },
  PinnedContext: {
    schema: PinnedContext,
    valid: [pinned],
    invalid: [
      bad("version 0", pinned, ["version"], 0),
      bad("hash not hex", pinned, ["hash"], "nope"),
      missing(pinned, ["content"]),
      unknownKey(pinned),
    ],
  },
  PinnedContextEnvelope: {
    schema: PinnedContextEnvelope,
    valid: [{ pinnedContext: pinned }],
    invalid: [missing({ pinnedContext: pinned }, ["pinnedContext"])],
  },
  ThreadCheckpoint: {
    schema: ThreadCheckpoint,
    valid: [checkpoint],
    invalid: [bad("trigger text", checkpoint, ["trigger"], "x"), unknownKey(checkpoint)],
  },
  ThreadCheckpointList: {
    schema: ThreadCheckpointList,
    valid: [{ checkpoints: [] }, { checkpoints: [checkpoint] }],
    invalid: [unknownKey({ checkpoints: [] })],
  },
};
