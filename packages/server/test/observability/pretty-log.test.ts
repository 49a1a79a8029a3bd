import { describe, expect, it } from "vitest";
import { createPrettyLogStream, formatLogLine } from "../../src/observability/index.js";

describe("development log lines", () => {
  it("puts time, level, trace id, request and message on one line, other fields as key=value", () => {
    const line = JSON.stringify({
      level: 30,
      time: Date.UTC(2026, 10, 27, 9, 5, 1, 234),
      pid: 1,
      hostname: "h",
      traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
      req: { method: "POST", url: "/v1/chat" },
      msg: "incoming request",
      store: "postgres",
      note: "two words",
    });
    expect(formatLogLine(line)).toBe(
      '09:05:01.234 INFO  [trace 4bf92f35] POST /v1/chat incoming request store=postgres note="two words"',
    );
  });

  it("shows an error's stack under its line and passes non-JSON through", () => {
    const line = JSON.stringify({
      level: 50,
      time: 0,
      msg: "request failed",
      err: { stack: "Error: x\n  at f" },
    });
    expect(formatLogLine(line)).toBe("00:00:00.000 ERROR request failed\n    Error: x\n      at f");
    expect(formatLogLine("plain text")).toBe("plain text");
  });

  it("splits a chunk of several JSON lines into several readable lines", () => {
    const out: string[] = [];
    const sink = createPrettyLogStream({ write: (text: string) => out.push(text) });
    sink.write(
      `${JSON.stringify({ level: 40, time: 0, msg: "a" })}\n${JSON.stringify({ level: 20, time: 0, msg: "b" })}\n`,
    );
    expect(out).toEqual(["00:00:00.000 WARN  a\n", "00:00:00.000 DEBUG b\n"]);
  });
});
