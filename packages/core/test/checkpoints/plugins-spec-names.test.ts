import { type CheckpointPlugin, createCheckpointEngine, createManualClock } from "@solserver/core";
import { describe, expect, it } from "vitest";
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
