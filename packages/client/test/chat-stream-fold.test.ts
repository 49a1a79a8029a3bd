import { describe, expect, it } from "vitest";
import { type ChatStreamEvent, EMPTY_STREAM_VIEW, foldStream, SolClientError } from "../src/index.js";
import { fakeChatResponse } from "./support/chat-fixtures.js";

const fold = (events: readonly ChatStreamEvent[]) => events.reduce(foldStream, EMPTY_STREAM_VIEW);

describe("foldStream", () => {
  it("grows with deltas, empties on retract, stays revising until final, then settles", () => {
    const response = fakeChatResponse({ requestId: "r", threadId: "t", message: "m" }, 1);
    const events: ChatStreamEvent[] = [
      { type: "delta", text: "Draft ", shown: "Draft " },
      { type: "delta", text: "one", shown: "Draft one" },
      { type: "retract", reason: "driver_block_forbidden_pattern", shown: "" },
      { type: "delta", text: "New", shown: "New" },
    ];
    expect(fold(events.slice(0, 2))).toMatchObject({ phase: "streaming", text: "Draft one", retracts: 0 });
    expect(fold(events.slice(0, 3))).toMatchObject({ phase: "revising", text: "", retracts: 1 });
    expect(fold(events)).toMatchObject({
      phase: "revising",
      text: "New",
      retractReason: "driver_block_forbidden_pattern",
    });
    const done = fold([...events, { type: "final", response, shown: response.assistant.content }]);
    expect(done).toMatchObject({ phase: "done", text: response.assistant.content, retracts: 1, response });
  });

  it("keeps the shown text on error", () => {
    const error = new SolClientError("provider_error", "cut");
    const view = fold([
      { type: "delta", text: "Half a", shown: "Half a" },
      { type: "error", error, shown: "Half a" },
    ]);
    expect(view).toMatchObject({ phase: "failed", text: "Half a", error });
  });
});
