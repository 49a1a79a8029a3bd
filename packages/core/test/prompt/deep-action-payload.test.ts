import { hashActionPayload, parseModelOutput } from "@solserver/core";
import { describe, expect, it } from "vitest";
import { MAX_ACTION_PAYLOAD_DEPTH } from "../../src/contracts/envelope.js";

const nested = (levels: number) => `${'{"a":'.repeat(levels)}1${"}".repeat(levels)}`;
const action = (payload: string, label = "Send") =>
  `{"action_kind":"webhook","action_label":"${label}","action_summary_bullets":["x"],"action_payload":${payload}}`;
const reply = (...actions: string[]) =>
  `{"assistant_text":"ok","meta":{"action_needed":[${actions.join(",")}]}}`;

describe("model output: an action payload nested too deep", () => {
  it("is dropped, keeping the text and the other actions, as a format violation", () => {
    const parsed = parseModelOutput(reply(action(nested(20_000)), action('{"url":"https://x"}', "Other")));
    expect(parsed.formatViolation).toBe(true);
    expect(parsed.envelope.assistant_text).toBe("ok");
    expect(parsed.envelope.meta?.action_needed?.map((a) => a.action_label)).toEqual(["Other"]);
  });

  it("is accepted up to the limit, and hashes", () => {
    const parsed = parseModelOutput(reply(action(nested(MAX_ACTION_PAYLOAD_DEPTH - 1))));
    expect(parsed.formatViolation).toBe(false);
    const payload = parsed.envelope.meta?.action_needed?.[0]?.action_payload ?? {};
    expect(hashActionPayload("webhook", payload)).toMatch(/^[0-9a-f]{64}$/);
    expect(parseModelOutput(reply(action(nested(MAX_ACTION_PAYLOAD_DEPTH + 1)))).formatViolation).toBe(true);
  });
});
