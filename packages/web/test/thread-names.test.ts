import { describe, expect, it } from "vitest";
import { localThreadTitle, pickerEntries } from "../src/threads/thread-names.js";

const summary = (threadId: string, title?: string) => ({
  threadId,
  updatedAt: "2030-01-01T00:00:00.000Z",
  messageCount: 2,
  ...(title === undefined ? {} : { title }),
});

describe("thread names", () => {
  it("names a thread by its first user message, whitespace collapsed and clipped", () => {
    expect(localThreadTitle([{ role: "user", content: "  Plan a\n weekend " }])).toBe("Plan a weekend");
    expect(localThreadTitle([])).toBeUndefined();
    expect(localThreadTitle([{ role: "user", content: "x".repeat(200) }])?.length).toBeLessThanOrEqual(60);
  });

  it("never shows an id: server title, else local title, else New thread for the current one", () => {
    const entries = pickerEntries(
      "thr_new",
      ["thr_new", "thr_local", "thr_blank"],
      [summary("thr_srv", "Garden"), summary("thr_bare")],
      (id) => (id === "thr_local" ? "Lisbon" : undefined),
    );
    expect(entries).toEqual([
      { threadId: "thr_new", label: "New thread" },
      { threadId: "thr_srv", label: "Garden" },
      { threadId: "thr_bare", label: "Untitled thread" },
      { threadId: "thr_local", label: "Lisbon" },
    ]);
  });
});
