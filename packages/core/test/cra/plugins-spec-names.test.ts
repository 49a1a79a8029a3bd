import { createCheckpointEngine, createManualClock, matchKeywords } from "@solserver/core";
import { describe, expect, it } from "vitest";
import type { CheckpointPlugin } from "../../src/cra/engine/types.js";
import { specAtlas } from "./fixtures.js";

const newEngine = (plugins: CheckpointPlugin[] = []) =>
  createCheckpointEngine({ atlas: specAtlas(), clock: createManualClock(0), plugins });

describe("the spec's plugin and custom-type spellings", () => {
  it("installs checkpointTypes and configureCheckpoints (Checkpoint Plugins interface)", async () => {
    let configured = 0;
    const engine = newEngine([
      {
        name: "p1",
        checkpointTypes: [
          {
            name: "pt",
            evaluate: (input: string) => input.includes("ping"),
            defaultHandler: () => ({ continue: true, injectContext: ["pong"] }),
          },
        ],
        configureCheckpoints: (config) => {
          configured += 1;
          return { ...config, count_interval: { enabled: true, actions: 4, inject_contexts: [] } };
        },
      },
    ]);
    expect(configured).toBeGreaterThan(0);
    expect(engine.atlas.checkpoint_config.count_interval.actions).toBe(4);
    expect(engine.triggers.some((t) => t.type === "pt")).toBe(true);
    const r = await engine.evaluate(engine.createSession("s"), { type: "input", input: "ping" });
    expect(r.fired).toContainEqual({ type: "pt", priority: 200 });
    expect(r.injectContext).toContain("pong");
  });

  it("registerCheckpoint takes evaluator and handler (Custom Types example)", async () => {
    const engine = newEngine();
    const calls: string[] = [];
    const registered = engine.registerCheckpoint("custom_checkpoint", {
      description: "Triggered on custom condition",
      evaluator: (ctx) => {
        calls.push("evaluator");
        return (ctx.input ?? "").includes("custom");
      },
      handler: async () => {
        calls.push("handler");
        return { continue: true, injectContext: ["custom context"] };
      },
    });
    expect(registered.ok).toBe(true);
    const s = engine.createSession("s");
    const fired = await engine.evaluate(s, { type: "input", input: "a custom thing" });
    expect(fired.fired).toContainEqual({ type: "custom_checkpoint", priority: 200 });
    expect(fired.injectContext).toContain("custom context");
    expect(calls).toEqual(["evaluator", "handler"]);
    const quiet = await engine.evaluate(s, { type: "input", input: "nothing here" });
    expect(quiet.fired.some((f) => f.type === "custom_checkpoint")).toBe(false);
  });

  it("hands handlers the spec's CheckpointContext: trigger condition, cache, input.content", async () => {
    const engine = newEngine();
    const seen: unknown[] = [];
    engine.registerCheckpointType("kw_custom", {
      condition: { type: "keyword", keywords: ["deploy"], matchMode: "any" },
      // Written as the spec's Keyword Match Handler reads its context.
      defaultHandler: async (ctx) => {
        const input = ctx.input?.content || "";
        const keywords = ctx.trigger.type === "keyword" ? ctx.trigger.keywords : [];
        const matched = matchKeywords(input, keywords, "any").matches.map((m) => m.keyword);
        seen.push({
          trigger: ctx.trigger,
          checkpoint: [ctx.checkpoint.id, ctx.checkpoint.type],
          cache: ctx.cache === ctx.caches && typeof ctx.cache.invalidate === "function",
          input,
          inputText: ctx.inputText,
          matched,
        });
        return { continue: true, modifiedInput: { content: "rewritten" } };
      },
    });
    const r = await engine.evaluate(engine.createSession("s"), { type: "input", input: "deploy now" });
    expect(seen).toEqual([
      {
        trigger: { type: "keyword", keywords: ["deploy"], matchMode: "any" },
        checkpoint: ["custom:kw_custom", "kw_custom"],
        cache: true,
        input: "deploy now",
        inputText: "deploy now",
        matched: ["deploy"],
      },
    ]);
    expect(r.traceEvents.map((e) => e.eventType)).not.toContain("checkpoint_failed");
    expect(r.modifiedInput).toBe("rewritten");
  });

  it("passes an AgentInput modifiedInput on to the next handler as ctx.input", async () => {
    const inputs: unknown[] = [];
    const engine = newEngine([
      {
        name: "chain",
        checkpointTypes: [
          {
            name: "rewrite",
            defaultHandler: () => ({ continue: true, modifiedInput: { content: "second" } }),
            events: ["input"],
          },
        ],
        handlers: {
          rewrite: (ctx) => {
            inputs.push(ctx.input);
            return { continue: true };
          },
        },
      },
    ]);
    const r = await engine.evaluate(engine.createSession("s"), { type: "input", input: "first" });
    expect(inputs).toEqual([{ content: "second" }]);
    expect(r.modifiedInput).toBe("second");
  });

  it("refuses unknown keys instead of ignoring them", () => {
    const engine = newEngine();
    const plugin = engine.use({ name: "typo", checkpointType: [] } as unknown as CheckpointPlugin);
    expect(plugin.ok).toBe(false);
    expect(!plugin.ok && plugin.issues[0]).toMatchObject({ code: "unknown_key", path: ["checkpointType"] });
    const type = engine.registerCheckpointType("typo_type", { evalute: () => true } as never);
    expect(!type.ok && type.issues[0]?.code).toBe("unknown_key");
    expect(!type.ok && type.issues[0]?.message).toContain('"evalute"');
  });

  it("refuses both spellings of one setting at once", () => {
    const engine = newEngine();
    expect(engine.use({ name: "twice", configureCheckpoints: (c) => c, configTransform: (c) => c }).ok).toBe(
      false,
    );
    expect(engine.registerCheckpointType("two", { evaluate: () => true, evaluator: () => true }).ok).toBe(
      false,
    );
    expect(
      engine.registerCheckpointType("two_handlers", {
        defaultHandler: () => ({ continue: true }),
        handler: () => ({ continue: true }),
      }).ok,
    ).toBe(false);
  });
});
