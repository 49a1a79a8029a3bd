import { TraceActor, TraceEvent, TraceStatus } from "@solserver/core";
import { validTraceEvent } from "../fixtures/valid-contracts.js";
import { bad, type ContractCase, missing, str, unknownKey } from "./helpers.js";

const event = validTraceEvent();

export const traceCases: Record<string, ContractCase> = {
  TraceActor: {
    schema: TraceActor,
    valid: ["solmobile", "solserver", "model", "renderer", "user"],
    invalid: [bad("unknown actor", null, [], "admin")],
  },
  TraceStatus: {
    schema: TraceStatus,
    valid: ["started", "completed", "paused", "blocked", "failed", "warning"],
    invalid: [bad("unknown status", null, [], "done")],
  },
  TraceEvent: {
    schema: TraceEvent,
    valid: [event, { ...event, transmissionId: null }],
    invalid: [
      bad("negative seq", event, ["seq"], -1),
      bad("fractional seq", event, ["seq"], 1.5),
      bad("empty traceRunId", event, ["traceRunId"], ""),
      bad("transmissionId over 128", event, ["transmissionId"], str(129)),
      bad("unknown actor", event, ["actor"], "admin"),
      bad("phase over 64", event, ["phase"], str(65)),
      bad("unknown status", event, ["status"], "done"),
      bad("summary over 500", event, ["summary"], str(501)),
      bad("metadata not a record", event, ["metadata"], []),
      bad("ts not a datetime", event, ["ts"], "12:00"),
      bad("hash not 64 hex", event, ["hash"], "A".repeat(64)),
      bad("prevHash too short", event, ["prevHash"], "0".repeat(63)),
      missing(event, ["metadata"]),
      unknownKey(event),
    ],
  },
};
