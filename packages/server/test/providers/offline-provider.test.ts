import { ModeDecision, SolError, type ThreadMementoShape } from "@solserver/core";
import { describe, expect, it } from "vitest";
import { createOfflineProvider } from "../../src/index.js";
import { caught, collect, mainRequest, parseEnvelope } from "./helpers.js";

const provider = createOfflineProvider();

describe("offline provider: identity and determinism", () => {
  it("labels every response as offline with usage estimated at chars/4", async () => {
    const request = mainRequest("Plan the launch of the new site");
    const response = await provider.complete(request);
    expect(response).toMatchObject({
      provider: "offline",
      model: "offline-v1",
      offline: true,
      finishReason: "stop",
    });
    const inputChars = request.messages
      .map((m) => Math.ceil(m.content.length / 4))
      .reduce((a, b) => a + b, 0);
    expect(response.usage).toEqual({
      inputTokens: inputChars,
      outputTokens: Math.ceil(response.text.length / 4),
    });
    expect(provider.name).toBe("offline");
    expect(provider.model).toBe("offline-v1");
  });

  it("gives the same output for the same request, and a different one for a different message", async () => {
    const a = await provider.complete(mainRequest("Let's go with Postgres. I need to migrate the data."));
    const b = await createOfflineProvider().complete(
      mainRequest("Let's go with Postgres. I need to migrate the data."),
    );
    const c = await provider.complete(mainRequest("Let's go with SQLite instead."));
    expect(b.text).toBe(a.text);
    expect(c.text).not.toBe(a.text);
  });

  it("acknowledges the user's message by restating it", async () => {
    const envelope = parseEnvelope(
      (await provider.complete(mainRequest("Plan the launch of the new site"))).text,
    );
    expect(envelope.assistant_text).toContain('You said: "Plan the launch of the new site"');
  });

  it("answers plain text when json is false", async () => {
    const response = await provider.complete({ ...mainRequest("Plan the launch"), json: false });
    expect(() => JSON.parse(response.text)).toThrow();
    expect(response.text).toContain("Plan the launch");
  });

  it("refuses an already aborted request with a SolError", async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await caught(() => provider.complete({ ...mainRequest("hi"), signal: controller.signal }));
    expect(error).toBeInstanceOf(SolError);
    expect((error as SolError).code).toBe("provider_error");
  });

  it("rejects a bad time-zone offset at creation", () => {
    expect(() => createOfflineProvider({ timeZoneOffsetMinutes: 5000 })).toThrow(SolError);
  });
});

describe("offline provider: meta.shape", () => {
  it("sets the arc from the first user message when there is no previous shape", async () => {
    const envelope = parseEnvelope(
      (await provider.complete(mainRequest("Build a budget app. It needs charts."))).text,
    );
    expect(envelope.meta?.shape).toEqual({
      arc: "Build a budget app.",
      active: [],
      parked: [],
      decisions: [],
      next: [],
    });
  });

  it("keeps the previous arc and appends decisions and next items", async () => {
    const previousShape: ThreadMementoShape = {
      arc: "Budget app",
      active: ["charts"],
      parked: [],
      decisions: ["use React"],
      next: ["write specs"],
    };
    const message = "We decided to use SQLite. I need to write the schema. Todo: pick a chart library";
    const envelope = parseEnvelope((await provider.complete(mainRequest(message, { previousShape }))).text);
    expect(envelope.meta?.shape).toEqual({
      arc: "Budget app",
      active: ["charts"],
      parked: [],
      decisions: ["use React", "We decided to use SQLite"],
      next: ["write specs", "write the schema", "pick a chart library"],
    });
  });

  it("parks, and removes finished next items", async () => {
    const previousShape: ThreadMementoShape = {
      arc: "Budget app",
      active: [],
      parked: [],
      decisions: [],
      next: ["write the schema", "deploy"],
    };
    const message = "I finished the schema. Let's park the export feature.";
    const shape = parseEnvelope((await provider.complete(mainRequest(message, { previousShape }))).text).meta
      ?.shape;
    expect(shape?.next).toEqual(["deploy"]);
    expect(shape?.parked).toEqual(["export feature"]);
    expect(shape?.decisions).toEqual([]);
  });

  it("leaves the shape unchanged on an acknowledgement", async () => {
    const previousShape: ThreadMementoShape = {
      arc: "A",
      active: ["b"],
      parked: ["c"],
      decisions: ["d"],
      next: ["e"],
    };
    const envelope = parseEnvelope(
      (await provider.complete(mainRequest("ok thanks", { previousShape }))).text,
    );
    expect(envelope.meta?.shape).toEqual(previousShape);
  });
});

describe("offline provider: affect and signals", () => {
  const meta = async (message: string) =>
    parseEnvelope((await provider.complete(mainRequest(message))).text).meta;

  it("reads affect from lexical cues, stronger with intensifiers", async () => {
    const calm = await meta("What is on the agenda");
    const overwhelmed = await meta("I'm overwhelmed by the backlog");
    const very = await meta("I'm so overwhelmed by the backlog!!");
    expect(calm?.affect_signal).toEqual({ label: "neutral", intensity: 0.1, confidence: "low" });
    expect(overwhelmed?.affect_signal?.label).toBe("overwhelmed");
    expect(overwhelmed?.affect_signal?.intensity).toBeGreaterThan(0.5);
    expect(very?.affect_signal?.intensity).toBeGreaterThan(overwhelmed?.affect_signal?.intensity ?? 1);
    expect((await meta("thank you, that helped"))?.affect_signal?.label).toBe("grateful");
  });

  it("emits decision_made, answer_provided and open_loop_created from cues", async () => {
    const kinds = (await meta("Let's go with Postgres. I need to migrate. Is that risky?"))?.signals?.map(
      (s) => s.kind,
    );
    expect(kinds).toEqual(["decision_made", "answer_provided", "open_loop_created", "risk_or_conflict"]);
    expect((await meta("I'll go with the blue theme"))?.signals?.map((s) => s.kind)).toEqual([
      "decision_made",
    ]);
  });

  it("emits only ack_only for an acknowledgement", async () => {
    expect((await meta("ok thanks"))?.signals).toEqual([{ kind: "ack_only", confidence: "high" }]);
    expect((await meta("Sounds good!"))?.signals).toEqual([{ kind: "ack_only", confidence: "high" }]);
  });

  it("emits pivot on a change of direction", async () => {
    const kinds = (await meta("Actually, let's talk about hiring instead"))?.signals?.map((s) => s.kind);
    expect(kinds).toContain("pivot");
  });
});

describe("offline provider: stream", () => {
  it("streams a few deltas that add up to the done response", async () => {
    const chunks = await collect(provider.stream(mainRequest("Let's go with Postgres")));
    const deltas = chunks.filter((c) => c.type === "delta");
    const done = chunks.at(-1);
    expect(deltas.length).toBeGreaterThan(1);
    expect(done?.type).toBe("done");
    if (done?.type !== "done") return;
    expect(deltas.map((d) => d.text).join("")).toBe(done.response.text);
    expect(done.response.text).toBe((await provider.complete(mainRequest("Let's go with Postgres"))).text);
  });
});

describe("offline provider: selector", () => {
  const selector = (content: string, selectorModes?: string[]) =>
    provider.complete({
      purpose: "selector",
      json: true,
      messages: [{ role: "user", content }],
      hints: { userMessage: "help me plan", ...(selectorModes === undefined ? {} : { selectorModes }) },
    });

  it("returns valid ModeDecision JSON choosing the first allowed mode", async () => {
    const decision = ModeDecision.parse(
      JSON.parse((await selector("Pick a mode.", ["planner", "coach"])).text),
    );
    expect(decision.modeLabel).toBe("planner");
    expect(decision.step).toBe(2);
  });

  it("keeps the router's best guess when it is an allowed mode", async () => {
    const text = (await selector('Router says: {"bestGuess": "coach"}', ["planner", "coach"])).text;
    expect(ModeDecision.parse(JSON.parse(text)).modeLabel).toBe("coach");
    const notAllowed = (await selector('{"bestGuess": "pirate"}', ["planner", "coach"])).text;
    expect(ModeDecision.parse(JSON.parse(notAllowed)).modeLabel).toBe("planner");
  });

  it("falls back to a valid label without modes or guess", async () => {
    expect(ModeDecision.safeParse(JSON.parse((await selector("Pick.")).text)).success).toBe(true);
  });
});
