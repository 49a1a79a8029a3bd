import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureServerBuilt, runCli, type ServeProcess, startServeProcess } from "../support/built-cli.js";

// Issue 23 item 8: `sol chat` numbers proposed actions and acts on them with /approve N and /defer N.
describe("sol chat acting on proposed actions", () => {
  let server: ServeProcess;
  beforeAll(async () => {
    await ensureServerBuilt();
    server = await startServeProcess({ SOL_DB_URL: "sqlite::memory:", SOL_RATE_LIMIT_PER_MIN: "0" });
  }, 180_000);
  afterAll(async () => {
    expect(await server?.stop()).toBe(0);
  });

  const action = async (id: string) => {
    const res = await fetch(new URL(`/v1/actions/${id}`, server.url));
    expect(res.status).toBe(200);
    return (await res.json()) as { status: string; receipt?: { summary: string } };
  };
  const proposed = (out: string) => [
    ...out.matchAll(/^ {2}\[(\d+)\] needs permission: (.+) \((act_\w+)\)/gm),
  ];

  it("approves proposal 1 with a receipt and defers proposal 2, in the zone given", async () => {
    const input = [
      "remind me to call mom tomorrow at 9",
      "/approve 1",
      "remind me to water the plants tomorrow at 6pm",
      "/defer 2",
      "/approve 2",
    ];
    const res = await runCli(
      ["chat", "--url", server.url, "--thread", "cli-act", "--timezone", "Asia/Tokyo"],
      {
        input: `${input.join("\n")}\n`,
      },
    );
    expect(res.stderr).toBe("");
    expect(res.stdout).toContain("time zone Asia/Tokyo");
    const found = proposed(res.stdout);
    expect(found.map((m) => m[1])).toEqual(["1", "2"]);
    const [first, second] = found.map((m) => m[3] as string);
    expect(res.stdout).toMatch(/^ {2}\[1\] Create Reminder: succeeded$/m);
    expect(res.stdout).toMatch(/^ {2}receipt: Reminder created: .*call mom/m);
    expect(res.stdout).toMatch(/^ {2}\[2\] Create Reminder: deferred$/m);
    // The server did what the terminal says: one ran, the other waits.
    expect((await action(first as string)).status).toBe("succeeded");
    // A deferred action can still be approved later.
    expect(res.stdout).toMatch(/^ {2}\[2\] Create Reminder: succeeded$/m);
    expect((await action(second as string)).status).toBe("succeeded");
    // Only messages became turns: the commands were not sent as chat.
    expect([...res.stdout.matchAll(/^sol> /gm)]).toHaveLength(2);
    expect(res.code).toBe(0);
  });

  it("prints the server's error for an action that cannot run again, and a clear one for an unknown number", async () => {
    const input = [
      "remind me to pay rent tomorrow at 10",
      "/approve 1",
      "/approve 1",
      "/defer 7",
      "/approve",
    ];
    const res = await runCli(["chat", "--url", server.url, "--timezone", "UTC"], {
      input: `${input.join("\n")}\n`,
    });
    expect(res.stdout).toMatch(/^ {2}\[1\] Create Reminder: succeeded$/m);
    expect(res.stdout).toMatch(/^ {2}error: \[1\] Create Reminder: 409 \w+: /m);
    expect(res.stdout).toContain("error: /defer N: no proposed action 7; /help lists commands");
    expect(res.stdout).toContain("error: /approve N: give its number");
    expect(res.code).toBe(1);
  });

  it("/help lists the commands, and an unknown --timezone is refused before anything is sent", async () => {
    const help = await runCli(["chat", "--url", server.url], { input: "/help\n" });
    expect(help.code).toBe(0);
    for (const command of ["/approve N", "/defer N", "/help", "/quit"])
      expect(help.stdout).toContain(command);
    expect(help.stdout).not.toMatch(/^sol> /m);
    const bad = await runCli(["chat", "--url", server.url, "--timezone", "Mars/Olympus"], { input: "hi\n" });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('--timezone "Mars/Olympus" is not an IANA time zone');
  });

  it("sends the zone as meta.timezone: the reminder's due time is read in it", async () => {
    const run = async (zone: string, thread: string) => {
      const res = await runCli(["chat", "--url", server.url, "--thread", thread, "--timezone", zone], {
        input: "remind me to stretch tomorrow at 9\n/approve 1\n",
      });
      expect(res.code).toBe(0);
      return (/^ {2}receipt: (.*)$/m.exec(res.stdout)?.[1] ?? "") as string;
    };
    const tokyo = await run("Asia/Tokyo", "tz-tokyo");
    const york = await run("America/New_York", "tz-york");
    expect(tokyo).not.toBe("");
    expect(tokyo).not.toBe(york);
  });
});
