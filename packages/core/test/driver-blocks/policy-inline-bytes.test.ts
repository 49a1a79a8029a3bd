import { createPolicyEngine, type DriverBlockInput, PacketInput } from "@solserver/core";
import { describe, expect, it } from "vitest";

const bytesOf = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).length;

/** A block as a client writes it (no scope, enforcement or promptConstraints), `bytes` bytes of JSON. */
function sized(bytes: number): DriverBlockInput {
  const build = (description: string) => ({ id: "big", version: 1, description });
  return build("d".repeat(bytes - bytesOf(build(""))));
}

// The server hands the policy engine the parsed packet, where the schema has filled in scope,
// enforcement and promptConstraints; the limit is on the block the client sent, so the answer and
// the size it reports are the same as for the block itself.
describe("maxInlineBytes on a parsed packet", () => {
  const engine = createPolicyEngine({ limits: { maxInlineBytes: 500 } });
  const parsedInline = (block: DriverBlockInput) =>
    PacketInput.parse({ requestId: "r", threadId: "t", message: "m", driverBlockInline: [block] })
      .driverBlockInline;

  it("accepts a block within the limit as sent", () => {
    expect(bytesOf(sized(500))).toBe(500);
    expect(engine.resolve({ driverBlockInline: parsedInline(sized(500)) }).ok).toBe(true);
  });

  it("reports the size the client sent", () => {
    const result = engine.resolve({ driverBlockInline: parsedInline(sized(501)) });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues[0]).toMatchObject({
      message: "driverBlockInline[0] is 501 bytes of JSON; the limit is 500 bytes per block",
      limit: { name: "maxInlineBytes", max: 500, actual: 501 },
    });
  });

  it("still counts a field the client set to another value than its default", () => {
    const block = { ...sized(490), enforcement: "warn" as const };
    expect(bytesOf(block)).toBe(511);
    const result = engine.resolve({ driverBlockInline: parsedInline(block) });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues[0]?.message).toContain("is 511 bytes of JSON");
  });
});
