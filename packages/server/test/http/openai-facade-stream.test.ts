import type OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { facadeClient } from "../support/openai-client.js";
import { messagesOf, startScriptedModel } from "../support/scripted-model.js";
import { startTestServer, type TestServer } from "../support/test-server.js";

// Guarded streaming on the OpenAI facades (README "Streaming on the facades"), with the official
// `openai` client streaming against a scripted upstream on a real socket.

// The governance floor (authority laundering) holds on every facade turn: a prefix-decidable check.
const PHRASE = "as your lawyer";
const envelope = (text: string, meta: Record<string, unknown> = {}) =>
  JSON.stringify({ assistant_text: text, meta });

/** The envelope cut into chunks at the given offsets. */
function chunked(raw: string, cuts: readonly number[]): string[] {
  const out: string[] = [];
  let from = 0;
  for (const at of cuts) {
    out.push(raw.slice(from, at));
    from = at;
  }
  out.push(raw.slice(from));
  return out.filter((c) => c !== "");
}

/** A gate the upstream waits on after its chunks, opened by the test (or, failing that, after 3 s). */
function gate() {
  let open: () => void = () => {};
  let openedByTest = false;
  const wait = new Promise<void>((resolve) => {
    open = resolve;
  });
  const fallback = setTimeout(() => open(), 3_000);
  return {
    wait,
    get openedByTest() {
      return openedByTest;
    },
    open() {
      openedByTest = true;
      clearTimeout(fallback);
      open();
    },
  };
}

interface Setup {
  model: Awaited<ReturnType<typeof startScriptedModel>>;
  srv: TestServer;
  client: OpenAI;
}

async function setup(selectorMode = "assist"): Promise<Setup> {
  const model = await startScriptedModel(selectorMode);
  const srv = await startTestServer({
    backend: "sqlite-memory",
    env: { SOL_LLM: "openai", SOL_LLM_BASE_URL: model.upstream.url, SOL_LLM_MODEL: "scripted" },
  });
  return { model, srv, client: facadeClient(srv.url) };
}

async function teardown(s: Setup | undefined) {
  await s?.srv.close();
  await s?.model.close();
}

describe("facade streaming with the guarded release (must-not policy only)", () => {
  let s: Setup;
  beforeAll(async () => {
    s = await setup();
  });
  afterAll(() => teardown(s));

  it("chat.completions: the first content arrives while the upstream is still streaming", async () => {
    const text = "A steady answer with several words in it, streamed piece by piece to the end.";
    const g = gate();
    s.model.reply({ kind: "stream", chunks: chunked(envelope(text), [10, 30, 50, 70]), waitFor: g.wait });
    const stream = await s.client.chat.completions.create({
      model: "sol",
      stream: true,
      messages: [{ role: "user", content: "Tell me something." }],
    });
    let content = "";
    let contentChunks = 0;
    let finish: unknown = null;
    for await (const chunk of stream) {
      const piece = chunk.choices[0]?.delta.content;
      if (piece) {
        content += piece;
        contentChunks += 1;
        if (!g.openedByTest) g.open();
      }
      if (chunk.choices[0]?.finish_reason) finish = chunk;
    }
    expect(g.openedByTest, "a content chunk arrived before the upstream finished").toBe(true);
    expect(contentChunks).toBeGreaterThan(1);
    expect(content).toBe(text);
    expect(finish).toMatchObject({
      choices: [{ finish_reason: "stop" }],
      x_sol_breakpoint: expect.any(String),
    });
  });

  it("responses.create: output_text deltas arrive while the upstream is still streaming", async () => {
    const text = "Responses stream the release as well, in order, with every event numbered.";
    const g = gate();
    s.model.reply({ kind: "stream", chunks: chunked(envelope(text), [12, 33, 60]), waitFor: g.wait });
    const stream = await s.client.responses.create({
      model: "sol",
      input: "Tell me something.",
      stream: true,
    });
    let content = "";
    const types: string[] = [];
    let completed: OpenAI.Responses.Response | null = null;
    const sequence: number[] = [];
    for await (const event of stream) {
      types.push(event.type);
      sequence.push(event.sequence_number);
      if (event.type === "response.output_text.delta") {
        content += event.delta;
        if (!g.openedByTest) g.open();
      }
      if (event.type === "response.completed") completed = event.response;
    }
    expect(g.openedByTest).toBe(true);
    expect(content).toBe(text);
    expect(sequence).toEqual(sequence.map((_, i) => i));
    expect(types.slice(0, 4)).toEqual([
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      "response.content_part.added",
    ]);
    expect(types.slice(-4)).toEqual([
      "response.output_text.done",
      "response.content_part.done",
      "response.output_item.done",
      "response.completed",
    ]);
    expect(completed?.output[0]).toMatchObject({ type: "message", content: [{ type: "output_text", text }] });
    const added = types.indexOf("response.output_item.added");
    expect(added).toBeGreaterThan(-1);
  });

  it("a mid-stream violation releases no byte of it; the regeneration continues the shown text", async () => {
    const text = "Good question about the lease. As your lawyer, I would sign it today.";
    const raw = envelope(text);
    const safe = text.slice(0, text.indexOf("As your"));
    for (let cut = 1; cut < raw.length; cut += 3) {
      s.model.reply(
        { kind: "stream", chunks: chunked(raw, [cut, cut + 5]) },
        { kind: "json", body: { assistant_text: "a lawyer can advise you on it.", meta: {} } },
      );
      const stream = await s.client.chat.completions.create({
        model: "sol",
        stream: true,
        messages: [{ role: "user", content: "Tell me about my week." }],
      });
      let content = "";
      for await (const chunk of stream) content += chunk.choices[0]?.delta.content ?? "";
      expect(content.toLowerCase()).not.toContain(PHRASE);
      // The regeneration was asked to continue what the client had already been shown.
      const shownBefore = content.slice(0, content.length - "a lawyer can advise you on it.".length);
      expect(safe.startsWith(shownBefore), `cut ${cut}: ${JSON.stringify(content)}`).toBe(true);
      expect(content.endsWith("a lawyer can advise you on it.")).toBe(true);
      if (shownBefore !== "") {
        expect(JSON.stringify(s.model.lastMainPrompt())).toContain(
          "already been shown the start of your reply",
        );
      }
    }
  });

  it("a regeneration that repeats the shown text has it counted once", async () => {
    const text = "Markets move. As your lawyer, I say sign.";
    s.model.reply(
      { kind: "stream", chunks: chunked(envelope(text), [25, 40]) },
      { kind: "json", body: { assistant_text: "Markets move. A lawyer can tell you more.", meta: {} } },
    );
    const stream = await s.client.chat.completions.create({
      model: "sol",
      stream: true,
      messages: [{ role: "user", content: "Tell me about markets." }],
    });
    let content = "";
    for await (const chunk of stream) content += chunk.choices[0]?.delta.content ?? "";
    expect(content).toBe("Markets move. A lawyer can tell you more.");
  });

  it("carries proposed actions on the finish chunk (x_sol_actions) when the stream began before they were known", async () => {
    const action = {
      action_kind: "save_memory",
      action_label: "Remember the garden plan",
      action_summary_bullets: ["Save the plan"],
      action_payload: { text: "Garden plan: water on Mondays." },
    };
    s.model.reply({
      kind: "stream",
      chunks: chunked(envelope("I can remember that plan for you.", { action_needed: [action] }), [15, 40]),
    });
    const { data, response } = await s.client.chat.completions
      .create({
        model: "sol",
        stream: true,
        messages: [{ role: "user", content: "Remember my garden plan." }],
      })
      .withResponse();
    const finishes: Record<string, unknown>[] = [];
    for await (const chunk of data) {
      if (chunk.choices[0]?.finish_reason) finishes.push(chunk as unknown as Record<string, unknown>);
    }
    const finish = finishes[0];
    expect(response.headers.get("x-sol-trace-id")).toMatch(/./);
    expect(response.headers.get("x-sol-actions")).toBeNull();
    const listed = finish?.x_sol_actions as { action_id: string; action_kind: string }[];
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ action_kind: "save_memory", action_label: "Remember the garden plan" });
    const got = await fetch(new URL(`/v1/actions/${listed[0]?.action_id}`, s.srv.url), {
      headers: { authorization: "Bearer sk-test" },
    });
    expect(got.status).toBe(200);
  });

  it("ends a stream that fails after its first chunk with an error the client raises", async () => {
    const raw = envelope("This reply will be cut off somewhere in the middle of its text, sadly.");
    s.model.reply({ kind: "stream", chunks: [raw.slice(0, 50)], end: "reset" });
    const stream = await s.client.chat.completions.create({
      model: "sol",
      stream: true,
      messages: [{ role: "user", content: "Go on." }],
    });
    let content = "";
    const error = await (async () => {
      try {
        for await (const chunk of stream) content += chunk.choices[0]?.delta.content ?? "";
      } catch (e) {
        return e;
      }
      return null;
    })();
    expect(content.length).toBeGreaterThan(0);
    expect(error).toBeInstanceOf(Error);
  });
});

describe("facade streaming buffers when the policy has end-of-reply checks", () => {
  let s: Setup;
  beforeAll(async () => {
    s = await setup();
  });
  afterAll(() => teardown(s));

  it("a legal question (high rigor: a Facts section is checked at the end) is answered whole, after the check", async () => {
    const first = "Sign it, it looks fine.";
    const second = "Facts: the lease runs 12 months.\nAssumption: the rent is fixed.";
    s.model.reply(
      { kind: "json", body: { assistant_text: first, meta: {} } },
      { kind: "json", body: { assistant_text: second, meta: {} } },
    );
    const { data, response } = await s.client.chat.completions
      .create({
        model: "sol",
        stream: true,
        messages: [{ role: "user", content: "Should I sign the lease for my flat?" }],
      })
      .withResponse();
    let content = "";
    for await (const chunk of data) content += chunk.choices[0]?.delta.content ?? "";
    expect(content).toBe(second);
    // Buffered: the upstream was asked for the whole reply, not a stream, and the headers name the turn.
    const mains = s.model.upstream.requests.filter(
      (r) => !messagesOf(r).some((m) => m.content.includes("mode selector")),
    );
    expect(mains.slice(-2).map((r) => (r.body as { stream?: boolean }).stream === true)).toEqual([
      false,
      false,
    ]);
    expect(response.headers.get("x-sol-breakpoint")).toMatch(/must|should|skip/);
  });
});
