// npm run bench:stream — guarded streaming, measured against a scripted OpenAI upstream on a real socket.
// 1. Time to first token: the upstream streams an envelope at 50 tokens/s after a 200 ms first token;
//    measured straight to the upstream (the baseline of this run), through /v1/chat (Accept:
//    text/event-stream, guardrails on: a strict must-not block and the governance floor), through
//    /v1/chat/completions and /v1/responses (stream: true; the governance floor). p50 overhead =
//    p50(route) - p50(upstream). The reply opens with "Here", and "h" may start a guarded phrase: with
//    four-character tokens its "H" arrives alone and is held one token (20 ms) until "ere " shows it is
//    no phrase. A second reply opening with a word no phrase starts ("Plan") shows the overhead without
//    that hold (rows marked "no held first word").
// 2. No violating byte released: streams whose forbidden phrase is split across chunks at every
//    position, through /v1/chat; counts deltas before the retract that hold any byte of the phrase.
// 3. Envelope recovery: per replayed model behaviour, the share of turns whose meta was recovered
//    (no envelope_meta_lost, no envelope_truncated), without a regeneration (maxRegenerations 0) and with one (the
//    regeneration answers with an envelope, as a model that follows the format directive does).

import { startScriptedUpstream } from "../packages/harness/dist/index.js";
import { createOpenAiProvider, createSolServer, loadConfig } from "../packages/server/dist/index.js";

const RUNS = Number(process.env.BENCH_STREAM_RUNS ?? 15);
const PHRASE_STREAMS = Number(process.env.BENCH_STREAM_PHRASES ?? 1000);
const FIRST_TOKEN_MS = 200;
const TOKEN_MS = 20; // 50 tokens/s

const REPLY =
  "Here is a measured answer about the garden plan, with a few steps to take this week and a note on watering.";
const UNHELD_REPLY =
  "Plan the garden work this week in a few steps, and keep a note on watering as the days get warmer.";
const PHRASE = "guaranteed returns";
const envelope = (text) => JSON.stringify({ assistant_text: text, meta: { signals: [] } });
/** About four characters per token, as a model's tokenizer gives for English. */
const tokens = (raw) => raw.match(/.{1,4}/gs) ?? [];

let next = null; // the step for the next main call (null: the paced envelope)
const pacedStep = (reply) => ({
  kind: "stream",
  chunks: tokens(envelope(reply)),
  delayMs: FIRST_TOKEN_MS,
  intervalMs: TOKEN_MS,
});
let paced = pacedStep(REPLY);
const upstream = await startScriptedUpstream({
  record: false,
  fallback: (req) => {
    const messages = req.body?.messages ?? [];
    if (messages.some((m) => m.role === "system" && String(m.content).includes("mode selector"))) {
      return { kind: "json", body: { modeLabel: "assist", confidence: 0.9, reasons: ["bench"] } };
    }
    if (Array.isArray(next) && next.length > 0) return next.shift();
    // A call that does not stream gets the same reply after the time the stream takes to finish.
    if (req.body?.stream !== true) {
      const delayMs = FIRST_TOKEN_MS + TOKEN_MS * (paced.chunks.length - 1);
      return { kind: "json", body: { assistant_text: REPLY, meta: { signals: [] } }, delayMs };
    }
    return paced;
  },
});
const provider = createOpenAiProvider({ baseUrl: upstream.url, model: "bench", timeoutMs: 10_000 });
const config = loadConfig({
  env: { SOL_PORT: "0", SOL_HOST: "127.0.0.1", SOL_DB_URL: "sqlite::memory:", SOL_RATE_LIMIT_PER_MIN: "0" },
});
const server = await createSolServer(config, { provider });
const base = await server.listen();

const forbid = {
  id: "no-promises",
  version: 1,
  title: "No promises",
  enforcement: "strict",
  validators: { mustNot: [PHRASE] },
};
let n = 0;

/** Milliseconds from sending to the first body bytes that satisfy `isFirst`, and the whole text. */
async function timeTo(url, init, isFirst) {
  const t0 = performance.now();
  const res = await fetch(url, init);
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let first = null;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
    if (first === null && isFirst(text)) first = performance.now() - t0;
  }
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}: ${text.slice(0, 300)}`);
  return { first, total: performance.now() - t0, text };
}

const hasContentChunk = (text) => /"content":"[^"]/.test(text);
// The upstream's first character of reply text: the content so far holds `"assistant_text":"` and one more.
const hasReplyText = (text) => {
  const content = [...text.matchAll(/"content":"((?:[^"\\]|\\.)*)"/g)]
    .map((m) => JSON.parse(`"${m[1]}"`))
    .join("");
  return /"assistant_text":\s*"./.test(content);
};
const direct = () =>
  timeTo(
    `${upstream.url}/chat/completions`,
    {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "bench", stream: true, messages: [{ role: "user", content: "hi" }] }),
    },
    hasReplyText,
  );
const viaChat = () =>
  timeTo(
    `${base}/v1/chat`,
    {
      method: "POST",
      headers: { "content-type": "application/json", accept: "text/event-stream" },
      body: JSON.stringify({
        requestId: `b-${n++}`,
        threadId: `bt-${n}`,
        message: "What should I do in the garden this week?",
        driverBlockInline: [forbid],
      }),
    },
    (text) => text.includes("event: delta"),
  );
const viaCompletions = () =>
  timeTo(
    `${base}/v1/chat/completions`,
    {
      method: "POST",
      headers: { "content-type": "application/json", "x-sol-thread-id": `bc-${n++}` },
      body: JSON.stringify({
        model: "sol",
        stream: true,
        messages: [{ role: "user", content: "What should I do in the garden this week?" }],
      }),
    },
    hasContentChunk,
  );

const viaResponses = () =>
  timeTo(
    `${base}/v1/responses`,
    {
      method: "POST",
      headers: { "content-type": "application/json", "x-sol-thread-id": `br-${n++}` },
      body: JSON.stringify({
        model: "sol",
        stream: true,
        input: "What should I do in the garden this week?",
      }),
    },
    (text) => text.includes("event: response.output_text.delta"),
  );
/** The same route measured while the upstream streams the reply whose first word is never held. */
const unheld = (run) => async () => {
  paced = pacedStep(UNHELD_REPLY);
  try {
    return await run();
  } finally {
    paced = pacedStep(REPLY);
  }
};

const p50 = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)];
};

async function ttft() {
  const routes = {
    upstream: direct,
    "/v1/chat": viaChat,
    "/v1/chat/completions": viaCompletions,
    "/v1/responses": viaResponses,
    "upstream (no held first word)": unheld(direct),
    "/v1/chat (no held first word)": unheld(viaChat),
    "/v1/chat/completions (no held first word)": unheld(viaCompletions),
    "/v1/responses (no held first word)": unheld(viaResponses),
  };
  const firsts = Object.fromEntries(Object.keys(routes).map((k) => [k, []]));
  const totals = Object.fromEntries(Object.keys(routes).map((k) => [k, []]));
  await viaChat(); // warm-up: prepared statements, JIT
  for (let i = 0; i < RUNS; i++) {
    for (const [name, run] of Object.entries(routes)) {
      const r = await run();
      firsts[name].push(r.first ?? Number.NaN);
      totals[name].push(r.total);
    }
  }
  const baselineOf = (name) =>
    p50(firsts[name.includes("no held") ? "upstream (no held first word)" : "upstream"]);
  console.log(
    `\n## Time to first token (${RUNS} runs each; upstream: first token after ${FIRST_TOKEN_MS} ms, then 50 tokens/s)\n`,
  );
  console.log(
    "upstream = first character of assistant_text leaving the upstream (the earliest a guarded delta can exist)\n",
  );
  console.log("| path | p50 first token ms | p50 overhead ms | ratio vs upstream | p50 whole reply ms |");
  console.log("|---|---|---|---|---|");
  for (const name of Object.keys(routes)) {
    const f = p50(firsts[name]);
    const baseline = baselineOf(name);
    console.log(
      `| ${name} | ${f.toFixed(1)} | ${(f - baseline).toFixed(1)} | ${(f / baseline).toFixed(2)} | ${p50(totals[name]).toFixed(1)} |`,
    );
  }
}

async function violations() {
  const text = `The fund grew 4% last year. ${PHRASE} are not something anyone can promise, so plan for ups and downs.`;
  const raw = envelope(text);
  const phraseAt = text.indexOf(PHRASE);
  const clean = "The fund grew 4% last year; past results do not predict future ones.";
  let streams = 0;
  let released = 0;
  let retracted = 0;
  let finalMismatch = 0;
  const t0 = performance.now();
  while (streams < PHRASE_STREAMS) {
    for (let cut = 1; cut < raw.length && streams < PHRASE_STREAMS; cut++) {
      const second = 1 + ((cut * 7) % (raw.length - 1));
      const cuts = [...new Set([cut, second])].sort((a, b) => a - b);
      const chunks = [];
      let from = 0;
      for (const at of cuts) {
        chunks.push(raw.slice(from, at));
        from = at;
      }
      chunks.push(raw.slice(from));
      next = [
        { kind: "stream", chunks: chunks.filter((c) => c !== "") },
        { kind: "json", body: { assistant_text: clean, meta: {} } },
      ];
      const res = await fetch(`${base}/v1/chat`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "text/event-stream" },
        body: JSON.stringify({
          requestId: `v-${n++}`,
          threadId: `vt-${n}`,
          message: "Tell me about the fund.",
          driverBlockInline: [forbid],
        }),
      });
      const events = (await res.text())
        .split("\n\n")
        .filter((b) => b.trim() !== "")
        .map((b) => ({
          event: /^event: (.*)$/m.exec(b)?.[1],
          data: JSON.parse(/^data: (.*)$/m.exec(b)?.[1] ?? "null"),
        }));
      const retractAt = events.findIndex((e) => e.event === "retract");
      if (retractAt >= 0) retracted++;
      const shown = events
        .slice(0, retractAt < 0 ? events.length : retractAt)
        .filter((e) => e.event === "delta")
        .map((e) => e.data.text)
        .join("");
      // Any shown character at or past the phrase's start is a violating byte released.
      released += Math.max(0, shown.length - phraseAt);
      const after = events
        .slice(events.map((e) => e.event).lastIndexOf("retract") + 1)
        .filter((e) => e.event === "delta")
        .map((e) => e.data.text)
        .join("");
      if (after !== events.at(-1)?.data?.assistant?.content) finalMismatch++;
      streams++;
    }
  }
  next = null;
  console.log(
    `\n## No violating byte released (/v1/chat, phrase split at every position, ${((performance.now() - t0) / 1000).toFixed(1)} s)\n`,
  );
  console.log("| streams | violating bytes released | retracted | final != deltas after last retract |");
  console.log("|---|---|---|---|");
  console.log(`| ${streams} | ${released} | ${retracted} | ${finalMismatch} |`);
}

const BEHAVIOURS = {
  envelope: () => ({ kind: "json", body: { assistant_text: "Fine.", meta: { signals: [] } } }),
  "meta first": () => ({ kind: "text", content: '{"meta":{"signals":[]},"assistant_text":"Fine."}' }),
  "prose around JSON": () => ({
    kind: "text",
    content: 'Sure! Here it is:\n{"assistant_text":"Fine.","meta":{}}\nHope that helps.',
  }),
  "code fence": () => ({ kind: "text", content: '```json\n{"assistant_text":"Fine.","meta":{}}\n```' }),
  "truncated envelope": () => ({
    kind: "completion",
    message: { role: "assistant", content: '{"assistant_text":"Fine, and then the rep' },
    finishReason: "length",
  }),
  "wrong keys": () => ({
    kind: "text",
    content: '{"response":"Fine.","shape":{"arc":"a","active":[],"parked":[],"decisions":[],"next":[]}}',
  }),
  "plain text": () => ({ kind: "text", content: "Fine, just plain text." }),
};

async function recovery() {
  const turns = 10;
  console.log(`\n## Envelope recovery (${turns} turns per cell; meta recovered = no envelope_meta_lost)\n`);
  console.log("| behaviour | recovered, no regeneration | recovered, with regeneration | regenerations |");
  console.log("|---|---|---|---|");
  for (const [name, step] of Object.entries(BEHAVIOURS)) {
    const share = { without: 0, with: 0 };
    let regenerations = 0;
    for (const mode of ["without", "with"]) {
      for (let i = 0; i < turns; i++) {
        next = [step(), { kind: "json", body: { assistant_text: "Fine.", meta: {} } }];
        const res = await fetch(`${base}/v1/chat`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            requestId: `r-${n++}`,
            threadId: `rt-${n}`,
            message: "Say fine.",
            ...(mode === "without" ? { budgets: { maxRegenerations: 0 } } : {}),
          }),
        });
        const body = await res.json();
        const codes = body.validation?.violations?.map((v) => v.code) ?? ["no_response"];
        const lost = codes.includes("envelope_meta_lost") || codes.includes("envelope_truncated");
        if (res.status === 200 && !lost) share[mode]++;
        if (mode === "with" && body.validation?.regenerated) regenerations++;
      }
    }
    console.log(
      `| ${name} | ${(share.without / turns) * 100}% | ${(share.with / turns) * 100}% | ${regenerations}/${turns} |`,
    );
  }
  next = null;
}

try {
  await ttft();
  await violations();
  await recovery();
} finally {
  await server.close();
  await upstream.close();
}
