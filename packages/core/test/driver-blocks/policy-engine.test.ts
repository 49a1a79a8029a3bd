import {
  createPolicyEngine,
  DriverBlock,
  type DriverBlockInput,
  isSolError,
  PacketInput,
  policyHints,
  SYSTEM_DRIVER_BLOCKS,
  validateSystemBlocks,
} from "@solserver/core";
import { describe, expect, it } from "vitest";
import { compileDriverBlocks } from "../../src/driver-blocks/compile.js";
import { DEFAULT_POLICY_LIMITS } from "../../src/driver-blocks/policy-engine.js";
import type { PolicyIssue } from "../../src/driver-blocks/policy-types.js";
import { BASELINE_DRIVER_BLOCK_REFS } from "../../src/driver-blocks/system-blocks.js";
import { modeDecision, rigor } from "../fixtures/turn-fixtures.js";

const userBlock = (id: string, extra: Partial<DriverBlockInput> = {}): DriverBlockInput => ({
  id,
  version: 1,
  title: `Block ${id}`,
  ...extra,
});

function issuesOf(
  result: ReturnType<ReturnType<typeof createPolicyEngine>["resolve"]>,
): readonly PolicyIssue[] {
  if (result.ok) throw new Error("expected a failure");
  return result.issues;
}

function policyOf(result: ReturnType<ReturnType<typeof createPolicyEngine>["resolve"]>) {
  if (!result.ok) throw new Error(`unexpected issues: ${result.issues.map((i) => i.message).join("; ")}`);
  return result.value;
}

describe("system blocks", () => {
  it("are valid DriverBlocks with unique ids and the expected baseline", () => {
    for (const block of SYSTEM_DRIVER_BLOCKS) expect(DriverBlock.parse(block)).toEqual(block);
    const ids = SYSTEM_DRIVER_BLOCKS.map((b) => b.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(
      expect.arrayContaining([
        "facts-block",
        "decisions-next",
        "receipt-release",
        "assumptions-labelled",
        "no-claimed-actions",
      ]),
    );
    expect(BASELINE_DRIVER_BLOCK_REFS.map((r) => r.id)).toEqual([
      "no-claimed-actions",
      "assumptions-labelled",
    ]);
    expect(validateSystemBlocks(SYSTEM_DRIVER_BLOCKS).ok).toBe(true);
    expect(compileDriverBlocks(SYSTEM_DRIVER_BLOCKS).ok).toBe(true);
  });

  it("are frozen", () => {
    expect(Object.isFrozen(SYSTEM_DRIVER_BLOCKS)).toBe(true);
    expect(Object.isFrozen(SYSTEM_DRIVER_BLOCKS[0])).toBe(true);
  });
});

describe("selection", () => {
  const engine = createPolicyEngine();

  it("applies the baseline by default and adds refs and inline blocks in order", () => {
    const policy = policyOf(
      engine.resolve({
        driverBlockRefs: [{ id: "facts-block", version: 1 }],
        driverBlockInline: [userBlock("mine", { promptConstraints: ["Be brief."] })],
      }),
    );
    expect(policy.driverBlockMode).toBe("default");
    expect(policy.blocks.map((b) => `${b.id}@${b.version}`)).toEqual([
      "no-claimed-actions@1",
      "assumptions-labelled@1",
      "facts-block@1",
      "mine@1",
    ]);
    expect(policy.blocks[3]?.scope).toBe("user");
    expect(policy.promptConstraints).toContain("Be brief.");
    expect(policy.outputContract.requiredSections).toEqual(["Facts"]);
  });

  it("takes a parsed PacketInput's fields as they are (absent fields are undefined)", () => {
    const packet = PacketInput.parse({
      requestId: "r",
      threadId: "t",
      message: "m",
      driverBlockInline: [userBlock("x")],
    });
    const policy = policyOf(
      engine.resolve({
        driverBlockMode: packet.driverBlockMode,
        driverBlockRefs: packet.driverBlockRefs,
        driverBlockInline: packet.driverBlockInline,
        modeLabel: "chat",
      }),
    );
    expect(policy.blocks.map((b) => b.id)).toEqual(["no-claimed-actions", "assumptions-labelled", "x"]);
  });

  it("applies no implicit baseline in custom mode", () => {
    const policy = policyOf(
      engine.resolve({
        driverBlockMode: "custom",
        driverBlockRefs: [{ id: "decisions-next", version: "1" }],
      }),
    );
    expect(policy.driverBlockMode).toBe("custom");
    expect(policy.blocks.map((b) => b.id)).toEqual(["decisions-next"]);
    expect(policyOf(engine.resolve({ driverBlockMode: "custom" })).blocks).toEqual([]);
  });

  it("deduplicates a ref to a baseline block or the same ref twice", () => {
    const policy = policyOf(
      engine.resolve({
        driverBlockRefs: [
          { id: "no-claimed-actions", version: "1" },
          { id: "facts-block", version: "1" },
          { id: "facts-block", version: 1 },
        ],
      }),
    );
    expect(policy.blocks.map((b) => b.id)).toEqual([
      "no-claimed-actions",
      "assumptions-labelled",
      "facts-block",
    ]);
  });

  it("rejects unknown refs naming the ref and the known versions", () => {
    const issues = issuesOf(
      engine.resolve({
        driverBlockRefs: [
          { id: "facts-block", version: "9" },
          { id: "nope", version: 1 },
        ],
      }),
    );
    expect(issues.map((i) => i.code)).toEqual(["unknown_driver_block", "unknown_driver_block"]);
    expect(issues[0]?.message).toContain("facts-block@9");
    expect(issues[0]?.message).toContain("known versions: 1");
    expect(issues[1]?.path).toEqual(["driverBlockRefs", 1]);
  });

  it("rejects an inline block reusing a selected id, and forces inline scope to user", () => {
    const dup = issuesOf(
      engine.resolve({ driverBlockInline: [userBlock("no-claimed-actions", { enforcement: "off" })] }),
    );
    expect(dup[0]?.code).toBe("duplicate_driver_block");
    expect(dup[0]?.path).toEqual(["driverBlockInline", 0]);
    const twice = issuesOf(engine.resolve({ driverBlockInline: [userBlock("a"), userBlock("a")] }));
    expect(twice[0]?.code).toBe("duplicate_driver_block");
    const policy = policyOf(
      engine.resolve({
        driverBlockMode: "custom",
        driverBlockInline: [userBlock("sys", { scope: "system" })],
      }),
    );
    expect(policy.blocks[0]?.scope).toBe("user");
  });

  it("reports invalid inline blocks with paths", () => {
    const issues = issuesOf(engine.resolve({ driverBlockInline: [{ id: "x" } as DriverBlockInput] }));
    expect(issues.every((i) => i.code === "invalid_driver_block")).toBe(true);
    expect(issues.some((i) => i.path?.[2] === "version")).toBe(true);
    const badPattern = issuesOf(
      engine.resolve({ driverBlockInline: [userBlock("p", { validators: { mustNot: ["/"] } })] }),
    );
    expect(badPattern[0]).toMatchObject({
      code: "invalid_driver_block",
      path: ["driverBlockInline", 0, "validators", "mustNot", 0],
    });
  });

  it("filters blocks by appliesToModes (case-insensitive) and records the skipped ones", () => {
    const inline = [
      userBlock("legal-only", { appliesToModes: ["Legal"], promptConstraints: ["Cite the statute."] }),
    ];
    const legal = policyOf(engine.resolve({ driverBlockInline: inline, modeLabel: "legal" }));
    expect(legal.blocks.map((b) => b.id)).toContain("legal-only");
    const chat = policyOf(engine.resolve({ driverBlockInline: inline, modeLabel: "chat" }));
    expect(chat.blocks.map((b) => b.id)).not.toContain("legal-only");
    expect(chat.skipped).toEqual([{ id: "legal-only", version: 1, reason: "not_for_mode" }]);
    expect(chat.promptConstraints).not.toContain("Cite the statute.");
    const unknownMode = policyOf(engine.resolve({ driverBlockInline: inline }));
    expect(unknownMode.skipped.map((s) => s.id)).toEqual(["legal-only"]);
  });
});

describe("limits", () => {
  const engine = createPolicyEngine();
  const refs = (n: number) => Array.from({ length: n }, () => ({ id: "facts-block", version: "1" }));

  it("has the documented defaults", () => {
    expect(DEFAULT_POLICY_LIMITS).toEqual({
      maxRefs: 10,
      maxInline: 3,
      maxInlineBytes: 4096,
      maxNonBaselineBlocks: 15,
    });
    expect(engine.limits).toEqual(DEFAULT_POLICY_LIMITS);
  });

  it("allows exactly 10 refs and rejects 11, naming the limit", () => {
    expect(engine.resolve({ driverBlockRefs: refs(10) }).ok).toBe(true);
    const [issue] = issuesOf(engine.resolve({ driverBlockRefs: refs(11) }));
    expect(issue).toMatchObject({
      code: "driver_block_limit",
      message: "driverBlockRefs has 11 refs; the limit is 10",
      path: ["driverBlockRefs"],
      limit: { name: "maxRefs", max: 10, actual: 11 },
    });
  });

  it("allows 3 inline blocks and rejects 4, naming the limit", () => {
    const blocks = (n: number) => Array.from({ length: n }, (_, i) => userBlock(`b${i}`));
    expect(engine.resolve({ driverBlockInline: blocks(3) }).ok).toBe(true);
    const [issue] = issuesOf(engine.resolve({ driverBlockInline: blocks(4) }));
    expect(issue).toMatchObject({
      code: "driver_block_limit",
      message: "driverBlockInline has 4 blocks; the limit is 3",
      path: ["driverBlockInline"],
    });
  });

  it("measures each inline block as serialized JSON bytes (4096 allowed, 4097 not)", () => {
    const bytesOf = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).length;
    // A schema-valid block of exactly `bytes` bytes: 500-char constraints, then a description for the rest.
    const sized = (bytes: number, id = "big"): DriverBlockInput => {
      const constraints: string[] = [];
      const build = (description: string) =>
        userBlock(id, { description, promptConstraints: [...constraints] });
      while (bytesOf(build("")) + 503 <= bytes && constraints.length < 10) constraints.push("x".repeat(500));
      const rest = bytes - bytesOf(build(""));
      return build("é".repeat(Math.floor(rest / 2)) + "y".repeat(rest % 2));
    };
    expect(bytesOf(sized(4096))).toBe(4096);
    expect(DriverBlock.safeParse(sized(4097)).success).toBe(true);
    expect(engine.resolve({ driverBlockInline: [sized(4096)] }).ok).toBe(true);
    const over = issuesOf(engine.resolve({ driverBlockInline: [userBlock("ok"), sized(4097)] }));
    expect(over[0]).toMatchObject({
      code: "driver_block_limit",
      message: "driverBlockInline[1] is 4097 bytes of JSON; the limit is 4096 bytes per block",
      path: ["driverBlockInline", 1],
      limit: { name: "maxInlineBytes", max: 4096, actual: 4097 },
    });
  });

  it("caps non-baseline blocks in total (baseline refs do not count)", () => {
    const limited = createPolicyEngine({
      limits: { maxRefs: 20, maxNonBaselineBlocks: 4 },
      systemBlocks: [
        ...SYSTEM_DRIVER_BLOCKS,
        ...Array.from({ length: 5 }, (_, i) => ({ ...userBlock(`sys-${i}`), scope: "system" as const })),
      ],
    });
    const okRefs = [0, 1, 2].map((i) => ({ id: `sys-${i}`, version: 1 }));
    const withBaseline = [...okRefs, { id: "no-claimed-actions", version: "1" }];
    expect(limited.resolve({ driverBlockRefs: withBaseline, driverBlockInline: [userBlock("u")] }).ok).toBe(
      true,
    );
    const [issue] = issuesOf(
      limited.resolve({ driverBlockRefs: withBaseline, driverBlockInline: [userBlock("u"), userBlock("v")] }),
    );
    expect(issue).toMatchObject({
      code: "driver_block_limit",
      message: "this turn selects 5 non-baseline driver blocks; the limit is 4",
      limit: { name: "maxNonBaselineBlocks", max: 4, actual: 5 },
    });
  });

  it("reports every breached limit at once", () => {
    const issues = issuesOf(
      engine.resolve({
        driverBlockRefs: refs(12),
        driverBlockInline: Array.from({ length: 5 }, (_, i) => userBlock(`b${i}`)),
      }),
    );
    expect(issues.map((i) => i.limit?.name)).toEqual(["maxRefs", "maxInline"]);
  });
});

describe("engine options", () => {
  it("spreads defaults first, validates and freezes", () => {
    const engine = createPolicyEngine({ limits: { maxInline: 1 } });
    expect(engine.limits).toEqual({ ...DEFAULT_POLICY_LIMITS, maxInline: 1 });
    expect(Object.isFrozen(engine)).toBe(true);
    expect(Object.isFrozen(engine.limits)).toBe(true);
  });

  it("throws a SolError invalid_input on bad options", () => {
    const attempts = [
      () => createPolicyEngine({ limits: { maxRefs: -1 } }),
      () => createPolicyEngine({ systemBlocks: [{ id: "x" } as DriverBlockInput] }),
      () => createPolicyEngine({ baselineRefs: [{ id: "missing", version: 1 }] }),
      () => createPolicyEngine({ systemBlocks: [userBlock("a"), userBlock("a")] }),
    ];
    for (const attempt of attempts) {
      let caught: unknown;
      try {
        attempt();
      } catch (error) {
        caught = error;
      }
      expect(isSolError(caught) && caught.code === "invalid_input").toBe(true);
    }
  });
});

describe("compile", () => {
  it("compiles validators with their origin, alternatives and enforcement", () => {
    const result = compileDriverBlocks([
      DriverBlock.parse(
        userBlock("v", {
          enforcement: "warn",
          validators: {
            required: ["Summary/TL;DR"],
            mustNot: ["as an AI"],
            mustHaveAny: [["Source:", "Reference:"]],
          },
          outputContract: { requiredSections: ["Risks"] },
        }),
      ),
    ]);
    if (!result.ok) throw new Error("compile failed");
    const policy = result.value;
    expect(policy.validators.map((v) => v.kind)).toEqual([
      "required",
      "must_not",
      "must_have_any",
      "required_section",
    ]);
    expect(policy.validators.every((v) => v.source === "driver-block:v@1" && v.enforcement === "warn")).toBe(
      true,
    );
    const required = policy.validators[0];
    expect(required?.kind === "required" && required.pattern.alternatives).toEqual(["summary", "tl;dr"]);
    expect(policy.promptConstraints).toEqual(
      expect.arrayContaining([
        'Always include "Summary" or "TL;DR".',
        'Never write "as an AI".',
        'Include at least one of "Source:" or "Reference:".',
      ]),
    );
    expect(Object.isFrozen(policy.validators)).toBe(true);
  });

  it("parses action expectation requirements", () => {
    const result = compileDriverBlocks([
      DriverBlock.parse(
        userBlock("a", {
          actionExpectations: [
            { when: "I paid", require: "receipt" },
            { when: "let's park", require: "section:Open loop" },
            { when: "remind me", require: "action_needed" },
            { when: "deadline", require: "date/due" },
          ],
        }),
      ),
    ]);
    if (!result.ok) throw new Error("compile failed");
    expect(result.value.actionExpectations.map((e) => e.requirement.kind)).toEqual([
      "receipt",
      "section",
      "action_needed",
      "pattern",
    ]);
  });
});

describe("policyHints", () => {
  it("exposes what the linter checks, without off blocks", () => {
    const engine = createPolicyEngine();
    const policy = policyOf(
      engine.resolve({
        driverBlockRefs: [{ id: "decisions-next", version: "1" }],
        driverBlockInline: [
          userBlock("u", {
            validators: { required: ["Summary/TL;DR"], mustHaveAny: [["Source:", "Ref/Reference:"]] },
          }),
          userBlock("quiet", { enforcement: "off", validators: { required: ["never-hinted"] } }),
        ],
      }),
    );
    const hints = policyHints(policy, modeDecision({ rigorConfig: rigor("high", ["assumptions"]) }));
    expect(hints.requiredPhrases).toEqual(["Summary"]);
    expect(hints.requiredSections).toEqual(["Decisions", "Next", "Facts", "Assumptions"]);
    expect(hints.mustHaveAny).toEqual([["Source:", "Ref"]]);
    expect(hints.forbiddenPhrases).toEqual(
      expect.arrayContaining(["I sent", "I've booked", "has been paid", "presumably"]),
    );
  });

  it("is empty for an empty policy", () => {
    const result = compileDriverBlocks([]);
    expect(result.ok && policyHints(result.value)).toEqual({});
  });
});
