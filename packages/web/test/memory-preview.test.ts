import type { ActionNeeded } from "@solserver/core";
import { describe, expect, it } from "vitest";
import { memoryPreview } from "../src/chip/memory-preview.js";

const action = (kind: string, preview?: Record<string, unknown>): ActionNeeded => ({
  request_id: "r",
  action_needed: true,
  action_id: "a",
  action_label: "Remember this",
  action_kind: kind,
  action_summary_bullets: ["Save a memory"],
  ...(preview ? { action_payload_preview: preview } : {}),
});

describe("memoryPreview", () => {
  it("shows the summary of a save_memory payload, else its text", () => {
    expect(memoryPreview(action("save_memory", { text: "long text", summary: " Short " }))).toBe("Short");
    expect(memoryPreview(action("save_memory", { text: "Allergic to nuts" }))).toBe("Allergic to nuts");
  });

  it("is null for other kinds and for a preview without text", () => {
    expect(memoryPreview(action("create_reminder", { text: "x" }))).toBeNull();
    expect(memoryPreview(action("save_memory"))).toBeNull();
    expect(memoryPreview(action("save_memory", { text: "  ", summary: 3 }))).toBeNull();
  });
});
