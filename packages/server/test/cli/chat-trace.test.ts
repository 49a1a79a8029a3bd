import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureServerBuilt, runCli, type ServeProcess, startServeProcess } from "../support/built-cli.js";

describe("sol chat and sol trace against a running sol serve", () => {
  let server: ServeProcess;
  beforeAll(async () => {
    await ensureServerBuilt();
    server = await startServeProcess({ SOL_DB_URL: "sqlite::memory:", SOL_RATE_LIMIT_PER_MIN: "0" });
  }, 180_000);
  afterAll(async () => {
    expect(await server?.stop()).toBe(0);
  });

  it("chat reads piped lines until EOF and prints each reply, its mode, breakpoint and memento changes", async () => {
    const lines = [
      "I need to plan my week and book the dentist.",
      "remind me to call mom tomorrow at 9",
      "ok thanks",
    ];
    const res = await runCli(["chat", "--url", server.url, "--thread", "cli-thread"], {
      input: `${lines.join("\n")}\n`,
    });
    expect(res.stderr).toBe("");
    expect(res.code).toBe(0);
    const out = res.stdout;
    expect(out).toContain(`sol chat on ${server.url}, thread cli-thread`);
    // Every piped line became a turn, in order, each answered.
    const said = [...out.matchAll(/^you> (.*)$/gm)].map((m) => m[1]);
    expect(said).toEqual(lines);
    const replies = [...out.matchAll(/^sol> /gm)];
    expect(replies).toHaveLength(lines.length);
    const facts = [...out.matchAll(/^ {2}mode (\S+) \(step (\d)[^|]*\| breakpoint (MUST|SHOULD|SKIP)/gm)];
    expect(facts).toHaveLength(lines.length);
    expect(facts.map((f) => f[3])).toEqual(["SHOULD", "SHOULD", "SKIP"]);
    expect(out).toContain('memento created: arc "I need to plan my week and book the dentist."');
    expect(out).toMatch(/^ {2}next: \[.*\] -> \[.*"call mom".*\]$/m);
    expect(out).toMatch(
      /^ {2}\[1\] needs permission: Create Reminder \(act_\w+\) · \/approve 1 or \/defer 1$/m,
    );
  });

  it("chat stops at /quit without sending the lines after it", async () => {
    const res = await runCli(["chat", "--url", server.url], { input: "hello there\n/quit\nnever sent\n" });
    expect(res.code).toBe(0);
    expect([...res.stdout.matchAll(/^sol> /gm)]).toHaveLength(1);
    expect(res.stdout).not.toContain("never sent");
  });

  it("chat reports an unreachable server and exits non-zero", async () => {
    const res = await runCli(["chat", "--url", "http://127.0.0.1:1"], { input: "hi\n" });
    expect(res.code).toBe(1);
    expect(res.stdout).toContain("cannot reach http://127.0.0.1:1");
  });

  it("trace prints the timeline of a turn and verifies its hash chain", async () => {
    const turn = await fetch(new URL("/v1/chat", server.url), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ requestId: "cli-trace-1", threadId: "cli-trace", message: "Plan my week." }),
    });
    expect(turn.status).toBe(200);
    const { trace } = (await turn.json()) as { trace: { traceRunId: string } };
    const events = (await (await fetch(new URL(`/v1/traces/${trace.traceRunId}`, server.url))).json()) as {
      events: { seq: number; phase: string }[];
    };

    const res = await runCli(["trace", trace.traceRunId, "--url", server.url]);
    expect(res.code).toBe(0);
    const lines = res.stdout.trimEnd().split("\n");
    expect(lines[0]).toBe(`trace ${trace.traceRunId} (${events.events.length} events)`);
    expect(lines.at(-2)).toBe("anchors: valid (1)");
    expect(lines.at(-1)).toBe("hash chain: valid");
    const timeline = lines.slice(1, -2);
    expect(timeline).toHaveLength(events.events.length);
    timeline.forEach((line, i) => {
      const event = events.events[i];
      expect(line).toMatch(new RegExp(`^\\s*${event?.seq} \\+\\s*\\d+ms\\s+\\w+\\s+${event?.phase}\\s`));
    });
    for (const phase of ["receive", "route", "breakpoint", "policy", "assemble", "model_call", "respond"]) {
      expect(res.stdout).toMatch(new RegExp(`\\s${phase}\\s`));
    }
  });

  it("trace of an unknown run prints the 404 and exits non-zero", async () => {
    const res = await runCli(["trace", "tr_nope", "--url", server.url]);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain("404 not_found");
  });
});
