import { clipText } from "@solserver/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/test-server.js";

const EMOJI = "\u{1F600}";
const isWellFormed = (text: string) =>
  !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text);

describe("clipText", () => {
  it("cuts before a surrogate pair rather than through it", () => {
    expect(clipText("abc", 3)).toBe("abc");
    expect(clipText("abcd", 3)).toBe("ab…");
    expect(clipText(`a${EMOJI}b`, 3)).toBe("a…");
    expect(clipText(`ab${EMOJI}`, 3)).toBe("ab…");
    for (let max = 1; max < 12; max++) {
      const clipped = clipText(EMOJI.repeat(10), max);
      expect(isWellFormed(clipped), `max ${max}`).toBe(true);
      expect(clipped.length).toBeLessThanOrEqual(max);
    }
  });
});

/** Valid input of astral characters must not come back as a 400 about fields the client never sent. */
describe("POST /v1/checkpoints/evaluate with emoji-heavy input", () => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await startTestServer({ backend: "sqlite-memory" });
  });
  afterAll(async () => {
    await srv.close();
  });

  it("clips long error and explicit_request texts without splitting an emoji", async () => {
    for (const type of ["error", "explicit_request"]) {
      const res = await srv.request("POST", "/v1/checkpoints/evaluate", {
        sessionId: `emoji-${type}`,
        event: { type, input: EMOJI.repeat(300) },
      });
      expect(res.status, JSON.stringify(res.json).slice(0, 200)).toBe(200);
      expect(res.json.continue).toBe(true);
    }
  });

  it("asks for confirmation of an action whose type and target are long emoji strings", async () => {
    const type = `delete_x${EMOJI.repeat(60)}`;
    const res = await srv.request("POST", "/v1/checkpoints/evaluate", {
      sessionId: "emoji-confirm",
      event: { type: "action_pre", action: { type, params: { id: `x${EMOJI.repeat(60)}` } } },
    });
    expect(res.status, JSON.stringify(res.json).slice(0, 200)).toBe(200);
    expect(res.json.continue).toBe(false);
    const chip = res.json.requireConfirmation;
    for (const text of [
      chip.action_label,
      chip.action_kind,
      chip.action_target,
      ...chip.action_summary_bullets,
    ]) {
      expect(isWellFormed(text)).toBe(true);
    }
    const view = await srv.request("GET", `/v1/actions/${chip.action_id}`);
    expect(view.status).toBe(200);
    expect(view.json.action_label).toBe(chip.action_label);
  });
});
