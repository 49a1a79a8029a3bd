// A smoke run of the built server on whichever Node runs this script (CI runs it on Node 24 with the
// npm registry's `node` package; see .ci/run). It starts `sol serve` on a fresh PostgreSQL schema (no
// native module needed, so a node_modules built for another Node major still serves), then drives the
// paths a user hits first: health, a turn, its replay, a streamed turn, the OpenAI facade, a memory,
// a trace, the metrics. Exit code 0 only when every check held.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import pg from "pg";

const root = fileURLToPath(new URL("..", import.meta.url));
const base = process.env.SMOKE_PG_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const schema = `smoke_${process.pid}_${Date.now()}`;
const checks = [];

function check(name, ok, detail = "") {
  checks.push({ name, ok });
  process.stdout.write(`${ok ? "ok  " : "FAIL"} ${name}${detail ? ` (${detail})` : ""}\n`);
}

async function startServer() {
  const child = spawn(process.execPath, ["packages/server/dist/cli/main.js", "serve"], {
    cwd: root,
    env: {
      ...process.env,
      SOL_DB_URL: `${base}?schema=${schema}`,
      SOL_PORT: "0",
      SOL_HOST: "127.0.0.1",
      SOL_METRICS: "1",
      SOL_LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`sol serve did not start: ${output}`)), 60_000);
    const onData = (chunk) => {
      output += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout.setEncoding("utf8").on("data", onData);
    child.stderr.setEncoding("utf8").on("data", onData);
    child.once("exit", (code) => reject(new Error(`sol serve exited with ${code}: ${output}`)));
  });
  return { child, url };
}

async function post(url, path, body, headers = {}) {
  const res = await fetch(`${url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

async function drive(url) {
  const health = await (await fetch(`${url}/healthz`)).json();
  check("GET /healthz", health.status === "ok" && health.store === "postgres", JSON.stringify(health));
  const packet = { requestId: "smoke-1", threadId: "smoke", message: "Help me plan a picnic on Saturday." };
  const turn = await post(url, "/v1/chat", packet);
  const reply = JSON.parse(turn.text);
  check(
    "POST /v1/chat",
    turn.status === 200 && reply.assistant?.content?.length > 0,
    `status ${turn.status}`,
  );
  const replay = await post(url, "/v1/chat", packet);
  check(
    "replay of the same requestId",
    replay.headers.get("idempotent-replayed") === "true" && replay.text === turn.text,
  );
  const stream = await post(
    url,
    "/v1/chat",
    { ...packet, requestId: "smoke-2" },
    { accept: "text/event-stream" },
  );
  check(
    "streamed turn",
    stream.status === 200 && stream.text.includes("event: final"),
    `status ${stream.status}`,
  );
  const facade = await post(url, "/v1/chat/completions", {
    model: "sol",
    messages: [{ role: "user", content: "Say hello." }],
  });
  check(
    "POST /v1/chat/completions",
    facade.status === 200 && JSON.parse(facade.text).object === "chat.completion",
  );
  const memory = await post(url, "/v1/memories", { text: "I prefer window seats.", requestId: "smoke-mem" });
  check("POST /v1/memories", memory.status === 200 || memory.status === 201, `status ${memory.status}`);
  const trace = await (await fetch(`${url}/v1/traces/${reply.trace.traceRunId}`)).json();
  check("GET /v1/traces/:id", Array.isArray(trace.events) && trace.events.length > 0);
  const metrics = await (await fetch(`${url}/metrics`)).text();
  // Three turns ran (chat, streamed chat, facade) and one was replayed.
  const ok = /sol_turns_total\{[^}]*outcome="ok"[^}]*\} (\d+)/.exec(metrics)?.[1];
  const replayed = /sol_turns_total\{[^}]*outcome="replayed"[^}]*\} (\d+)/.exec(metrics)?.[1];
  check("GET /metrics", ok === "3" && replayed === "1", `ok ${ok}, replayed ${replayed}`);
}

const client = new pg.Client({ connectionString: base });
await client.connect();
process.stdout.write(`smoke on Node ${process.versions.node}, schema ${schema}\n`);
let server;
try {
  server = await startServer();
  await drive(server.url);
} catch (error) {
  check("smoke run", false, error instanceof Error ? error.message : String(error));
} finally {
  server?.child.kill("SIGTERM");
  await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await client.end();
}
const failed = checks.filter((c) => !c.ok).length;
process.stdout.write(
  `${checks.length - failed}/${checks.length} smoke checks passed on Node ${process.versions.node}\n`,
);
process.exit(failed === 0 ? 0 : 1);
