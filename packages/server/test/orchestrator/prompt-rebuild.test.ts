import {
  assemblePrompt,
  buildCheckpointCapsule,
  createPolicyEngine,
  createProfileRegistry,
  type LlmMessage,
  type LlmProvider,
  type ModeDecision,
  modulesFromRefs,
  type PromptModuleRef,
  type ThreadMementoV02,
  type WindowMessage,
} from "@solserver/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createProvider } from "../../src/providers/index.js";
import { sha256Hex } from "../../src/store/canonical-json.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

// Issue 23 acceptance: any prompt is rebuilt byte for byte from the profile modules its trace names,
// the deltas (ModeDecision, budgets), the Driver Blocks, the retrieval and the stored window.
const seen: (readonly LlmMessage[])[] = [];
const offline = createProvider({ SOL_LLM: "offline" });
const recording: LlmProvider = {
  name: offline.name,
  model: offline.model,
  complete(request) {
    if (request.purpose === "main") seen.push(request.messages);
    return offline.complete(request);
  },
};

const registry = (() => {
  const built = createProfileRegistry();
  if (!built.ok) throw new Error("profiles");
  return built.value;
})();

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer({ backend: "sqlite-memory", provider: recording });
});
afterAll(async () => srv.close());

interface TraceEvent {
  readonly phase: string;
  readonly metadata: Record<string, unknown>;
}

async function turn(threadId: string, requestId: string, message: string) {
  const before = await srv.request("GET", `/v1/threads/${threadId}/messages?limit=100`);
  const memento = await srv.request("GET", `/v1/threads/${threadId}/memento`);
  const budgets = { maxOutputTokens: 700 };
  const res = await srv.request("POST", "/v1/chat", {
    threadId,
    requestId,
    message,
    budgets,
    traceConfig: { level: "debug" },
  });
  expect(res.status).toBe(200);
  return {
    sent: seen.at(-1) ?? [],
    body: res.json,
    events: res.json.trace.events as TraceEvent[],
    window: (before.status === 200 ? before.json.messages : []) as {
      role: "user" | "assistant";
      content: string;
    }[],
    message,
    memento: (memento.status === 200 ? memento.json : null) as ThreadMementoV02 | null,
    budgets,
  };
}

/** Rebuilds the main-call prompt of a turn from its debug trace and the stored pieces. */
async function rebuild(t: Awaited<ReturnType<typeof turn>>) {
  const assemble = t.events.find((e) => e.phase === "assemble")?.metadata ?? {};
  const refs = assemble.modules as PromptModuleRef[];
  const modules = modulesFromRefs(registry, refs);
  if (!modules.ok) throw new Error(JSON.stringify(modules.issues));
  const modeDecision = t.body.modeDecision as ModeDecision;
  const policy = createPolicyEngine().resolve({ modeLabel: modeDecision.modeLabel });
  if (!policy.ok) throw new Error("policy");
  expect(policy.value.blocks.map((b) => ({ id: b.id, version: b.version }))).toEqual(assemble.blockVersions);
  const retrievalEvent = t.events.find((e) => e.phase === "retrieval")?.metadata ?? {};
  const retrieval: string[] = [];
  for (const { memoryId } of retrievalEvent.memories as { memoryId: string }[]) {
    retrieval.push((await srv.request("GET", `/v1/memories/${memoryId}`)).json.summary);
  }
  const window: WindowMessage[] = t.window.map((m) => ({ role: m.role, content: m.content }));
  // The atlas context blocks the checkpoint event names, in the order they were injected.
  const checkpoint = t.events.find((e) => e.phase === "checkpoint")?.metadata ?? {};
  const contextIds = (checkpoint.events as { payload?: { contextsInjected?: string[] } }[]).flatMap(
    (e) => e.payload?.contextsInjected ?? [],
  );
  const blocks = srv.server.checkpoints.engine.atlas.context_blocks;
  const injectedContext = contextIds.map((id) => blocks.find((b) => b.context_id === id)?.content ?? "");
  return assemblePrompt({
    law: modules.value.law,
    modules: modules.value.modules,
    profileId: assemble.profileId as string,
    modeDecision,
    budgets: t.budgets,
    ...(modeDecision.checkpointNeeded
      ? { checkpointCapsule: buildCheckpointCapsule(t.memento, modeDecision) }
      : {}),
    policy: policy.value,
    memento: t.memento,
    retrieval,
    injectedContext,
    window,
    userMessage: t.message,
    sha256Hex,
  });
}

describe("a turn's prompt rebuilt from its trace", () => {
  it("matches byte for byte in two modes with different contract modules", async () => {
    await srv.request("POST", "/v1/memories", {
      requestId: "rebuild-memory",
      text: "The grocery budget is 80 euros a week.",
    });
    const first = await turn("thread-rebuild", "rebuild-1", "assist mode: plan my grocery list for the week");
    const second = await turn(
      "thread-rebuild",
      "rebuild-2",
      "companion mode: I feel a bit low about the week",
    );
    expect(first.body.modeDecision.modeLabel).toBe("assist");
    expect(second.body.modeDecision.modeLabel).toBe("companion");
    expect(second.window.length).toBeGreaterThan(0);

    for (const t of [first, second]) {
      const rebuilt = await rebuild(t);
      const assemble = t.events.find((e) => e.phase === "assemble")?.metadata ?? {};
      expect(JSON.stringify(rebuilt.messages.map((m) => [m.role, m.content]))).toBe(
        JSON.stringify(t.sent.map((m) => [m.role, m.content])),
      );
      expect(rebuilt.promptHash).toBe(assemble.promptHash);
    }
    const ids = (t: typeof first) =>
      ((t.events.find((e) => e.phase === "assemble")?.metadata.modules ?? []) as PromptModuleRef[]).map(
        (m) => m.id,
      );
    expect(ids(first)).toEqual(["sol-mounted-law", "assist", "core"]);
    expect(ids(second)).toEqual(["sol-mounted-law", "companion", "core"]);
    expect(first.sent[1]?.content).not.toBe(second.sent[1]?.content);
  });
});
