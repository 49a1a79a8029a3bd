import { ThreadList, ThreadMessage, ThreadMessagePage, ThreadSummary } from "@solserver/core";
import { bad, type ContractCase, missing } from "./helpers.js";

const summary = { threadId: "t1", updatedAt: "2025-01-01T10:00:00.000Z", messageCount: 2 };
const message = {
  seq: 1,
  messageId: "m1",
  role: "user",
  content: "Plan my week",
  createdAt: "2025-01-01T10:00:00.000Z",
};

export const threadCases: Record<string, ContractCase> = {
  ThreadSummary: {
    schema: ThreadSummary,
    valid: [summary, { ...summary, lastModeLabel: "assist", title: "Plan my week" }],
    invalid: [bad("negative count", summary, ["messageCount"], -1), missing(summary, ["threadId"])],
  },
  ThreadList: {
    schema: ThreadList,
    valid: [{ threads: [] }, { threads: [summary] }],
    invalid: [
      bad("threads not a list", { threads: [] }, ["threads"], {}),
      missing({ threads: [] }, ["threads"]),
    ],
  },
  ThreadMessage: {
    schema: ThreadMessage,
    valid: [message, { ...message, role: "assistant" }],
    invalid: [bad("role system", message, ["role"], "system"), bad("seq 0", message, ["seq"], 0)],
  },
  ThreadMessagePage: {
    schema: ThreadMessagePage,
    valid: [{ messages: [] }, { messages: [message] }],
    invalid: [bad("a message with seq 0", { messages: [message] }, ["messages", 0, "seq"], 0)],
  },
};
