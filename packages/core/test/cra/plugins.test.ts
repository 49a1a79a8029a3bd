import { createCheckpointEngine, createManualClock } from "@solserver/core";
import { describe, expect, it } from "vitest";
import { createCheckpointRegistry } from "../../src/cra/engine/registry.js";
import type { CheckpointPlugin } from "../../src/cra/engine/types.js";
import { specAtlas } from "./fixtures.js";

const newEngine = (plugins: CheckpointPlugin[] = [], atlas = specAtlas()) =>
  createCheckpointEngine({ atlas, clock: createManualClock(0), plugins, requireKnownContexts: true });

describe("custom checkpoint types", () => {
  it("registers the spec's sentiment_negative example", async () => {
    const engine = newEngine();
    const registered = engine.registerCheckpointType("sentiment_negative", {
      description: "Triggered when input sentiment is negative",
      evaluate: async (input: string) => /\b(hate|awful|terrible)\b/i.test(input),
      defaultHandler: async () => ({
        continue: true,
        injectContextIds: ["safety-rules"],
        injectContext: ["Stay calm."],
      }),
      defaultPriority: 650,
    });
    expect(registered.ok && registered.value.events).toEqual([
      "input",
      "action_pre",
      "action_post",
      "error",
      "explicit_request",
    ]);
    const s = engine.createSession("s");
    const r = await engine.evaluate(s, { type: "input", input: "this is awful" });
    expect(r.fired).toEqual([{ type: "sentiment_negative", priority: 650 }]);
    expect(r.injectContext).toEqual(["[safety-rules] Safety Rules", "Stay calm."]);
    expect(r.traceEvents.map((e) => e.eventType)).toEqual(["custom_checkpoint"]);
    expect((await engine.evaluate(s, { type: "input", input: "lovely" })).fired).toEqual([]);
  });

  it("refuses bad names, duplicates and unsafe conditions", () => {
    const engine = newEngine();
    expect(engine.registerCheckpointType("keyword_match", {}).ok).toBe(false);
    expect(engine.registerCheckpointType("Bad Name", {}).ok).toBe(false);
    expect(engine.registerCheckpointType("dup", {}).ok).toBe(true);
    const dup = engine.registerCheckpointType("dup", {});
    expect(!dup.ok && dup.issues[0]?.code).toBe("duplicate_type");
    const regex = engine.registerCheckpointType("evil", { condition: { type: "regex", pattern: "(a)\\1" } });
    expect(!regex.ok && regex.issues[0]?.code).toBe("invalid_condition");
    expect(engine.registerCheckpointType("count0", { condition: { type: "count", actions: 0 } }).ok).toBe(
      false,
    );
    expect(
      engine.registerCheckpointType("both", { condition: { type: "always" }, evaluate: () => true }).ok,
    ).toBe(false);
  });

  it("supports every declarative trigger condition", async () => {
    const clock = createManualClock(0);
    const engine = createCheckpointEngine({
      atlas: { checkpoint_config: { budget: { max_checkpoints_per_input: 20 } } },
      clock,
    });
    const mk = (name: string, condition: Parameters<typeof engine.registerCheckpointType>[1]["condition"]) =>
      expect(engine.registerCheckpointType(name, { ...(condition ? { condition } : {}) }).ok).toBe(true);
    mk("c_always", { type: "always" });
    mk("c_keyword_all", {
      type: "keyword",
      keywords: ["alpha", "beta"],
      matchMode: "all",
      oncePerSession: true,
    });
    mk("c_phrase", { type: "keyword", keywords: ["red alert"], matchMode: "phrase" });
    mk("c_fuzzy", { type: "keyword", keywords: ["kubernetes"], matchMode: "fuzzy", oncePerSession: true });
    mk("c_regex", { type: "regex", pattern: "ticket-\\d{3,}", oncePerSession: true });
    mk("c_action", { type: "action", actions: ["send_*"] });
    mk("c_risk", { type: "risk", minTier: "critical" });
    mk("c_interval", { type: "interval", seconds: 10 });
    mk("c_count", { type: "count", actions: 2 });
    const s = engine.createSession("s");
    const fired = async (event: Parameters<typeof engine.evaluate>[1]) =>
      (await engine.evaluate(s, event)).fired.map((f) => f.type).sort();
    expect(await fired({ type: "input", input: "alpha beta, red alert, kubernets ticket-1234" })).toEqual(
      ["c_always", "c_fuzzy", "c_keyword_all", "c_phrase", "c_regex"].sort(),
    );
    expect(await fired({ type: "input", input: "alpha beta, red alert, ticket-1234" })).toEqual([
      "c_always",
      "c_phrase",
    ]);
    expect(await fired({ type: "action_pre", action: { type: "send_mail" } })).toEqual([
      "action_pre",
      "c_action",
      "c_always",
    ]);
    clock.advance(10_000);
    expect(await fired({ type: "action_pre", action: { type: "deploy" } })).toEqual([
      "action_pre",
      "c_always",
      "c_count",
      "c_interval",
      "c_risk",
    ]);
  });

  it("lets atlas settings disable, reprioritize and configure plugin types", async () => {
    const seen: unknown[] = [];
    const plugin: CheckpointPlugin = {
      name: "p",
      types: [
        {
          name: "on_input",
          condition: { type: "always" },
          events: ["input"],
          defaultHandler: (ctx) => {
            seen.push(ctx.options);
            return { continue: true };
          },
        },
        { name: "off_input", condition: { type: "always" }, events: ["input"] },
      ],
    };
    const atlas = specAtlas({
      checkpoint_config: {
        custom: { on_input: { priority: 777, options: { tone: "formal" } }, off_input: { enabled: false } },
      },
    });
    const engine = newEngine([plugin], atlas);
    const r = await engine.evaluate(engine.createSession("s"), { type: "input", input: "x" });
    expect(r.fired).toEqual([{ type: "on_input", priority: 777 }]);
    expect(seen).toEqual([{ tone: "formal" }]);
  });
});

describe("plugins", () => {
  it("adds handlers to built-in types, after the built-in behaviour", async () => {
    const order: string[] = [];
    const engine = newEngine([
      {
        name: "audit",
        handlers: {
          action_post: [
            (ctx) => {
              order.push(`audit:${ctx.action?.type}`);
              return { continue: true, traceEvents: [{ eventType: "audit_logged", payload: { n: 1 } }] };
            },
          ],
        },
      },
    ]);
    const r = await engine.evaluate(engine.createSession("s"), {
      type: "action_post",
      action: { type: "write_file" },
    });
    expect(order).toEqual(["audit:write_file"]);
    expect(r.traceEvents.map((e) => e.eventType)).toEqual(["action_completed", "audit_logged"]);
    expect(r.fired).toEqual([{ type: "action_post", priority: 100 }]);
  });

  it("transforms the checkpoint config and revalidates it", async () => {
    const engine = newEngine([
      {
        name: "counting",
        configTransform: (c) => ({
          ...c,
          count_interval: { enabled: true, actions: 2, inject_contexts: [] },
        }),
      },
    ]);
    expect(engine.atlas.checkpoint_config.count_interval.actions).toBe(2);
    expect(engine.triggers.some((t) => t.type === "count_interval")).toBe(true);
    const broken = engine.use({
      name: "broken",
      configTransform: (c) => ({ ...c, count_interval: { actions: -1 } }),
    });
    expect(broken.ok).toBe(false);
    const unknownContext = engine.use({
      name: "dangling",
      configTransform: (c) => ({ ...c, session_start: { enabled: true, inject_contexts: ["nowhere"] } }),
    });
    expect(!unknownContext.ok && unknownContext.issues[0]?.code).toBe("unknown_context");
    // failed plugins leave nothing behind: the names are free again
    expect(engine.use({ name: "broken" }).ok).toBe(true);
    expect(engine.atlas.checkpoint_config.count_interval.actions).toBe(2);
  });

  it("installs all or nothing", () => {
    const registry = createCheckpointRegistry();
    const bad = registry.use({
      name: "half",
      types: [{ name: "good_one" }, { name: "session_start" }],
      handlers: { no_such_type: () => ({ continue: true }) },
    });
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.issues.map((i) => i.code).sort()).toEqual(["invalid_type_name", "unknown_type"]);
    expect(registry.types()).toEqual([]);
    expect(registry.use({ name: "half", types: [{ name: "good_one" }] }).ok).toBe(true);
    expect(registry.use({ name: "half" }).ok).toBe(false);
    expect(registry.remove("half")).toBe(true);
    expect(registry.types()).toEqual([]);
  });

  it("reports failing handlers; a failure while gating an action blocks it", async () => {
    const plugin: CheckpointPlugin = {
      name: "flaky",
      types: [
        {
          name: "explodes",
          condition: { type: "always" },
          defaultHandler: () => {
            throw new Error("boom");
          },
        },
        {
          name: "malformed",
          condition: { type: "always" },
          defaultHandler: () => ({ continue: "yes" }) as never,
        },
      ],
    };
    const engine = newEngine([plugin]);
    const s = engine.createSession("s");
    const input = await engine.evaluate(s, { type: "input", input: "hello" });
    expect(input.continue).toBe(true);
    expect(
      input.traceEvents.filter((e) => e.eventType === "checkpoint_failed").map((e) => e.payload.error),
    ).toEqual(["boom", expect.stringMatching(/invalid handler result/)]);
    const action = await engine.evaluate(s, { type: "action_pre", action: { type: "read_file" } });
    expect(action.continue).toBe(false);
    expect(action.blockReason).toMatch(/explodes checkpoint failed/);
  });

  it("a custom evaluator that throws does not fire and is traced", async () => {
    const engine = newEngine();
    engine.registerCheckpointType("bad_eval", {
      evaluate: () => {
        throw new Error("eval broke");
      },
    });
    const r = await engine.evaluate(engine.createSession("s"), { type: "input", input: "x" });
    expect(r.fired).toEqual([]);
    expect(r.traceEvents[0]).toMatchObject({
      eventType: "checkpoint_failed",
      payload: { phase: "evaluate", error: "eval broke" },
    });
  });

  it("surfaces a handler's modifiedInput and confirmation requests", async () => {
    const engine = newEngine([
      {
        name: "redact",
        types: [
          {
            name: "redact_secrets",
            condition: { type: "regex", pattern: "sk-[a-z0-9]+", oncePerSession: false },
            defaultHandler: (ctx) => ({
              continue: true,
              modifiedInput: (ctx.inputText ?? "").replace(/sk-[a-z0-9]+/g, "[key]"),
            }),
          },
          {
            name: "ask_first",
            condition: { type: "action", actions: ["pay_*"] },
            defaultHandler: () => ({
              continue: false,
              blockReason: "payments need approval",
              requireConfirmation: {
                action_label: "Pay",
                action_kind: "payment",
                action_summary_bullets: ["Pay 5 EUR"],
              },
            }),
          },
        ],
      },
    ]);
    const s = engine.createSession("s");
    const r = await engine.evaluate(s, { type: "input", input: "my key is sk-abc123" });
    expect(r.modifiedInput).toBe("my key is [key]");
    const pay = await engine.evaluate(s, { type: "action_pre", action: { type: "pay_invoice" } });
    expect(pay.requireConfirmation).toMatchObject({
      action_needed: true,
      action_label: "Pay",
      action_kind: "payment",
    });
  });
});
