import {
  ActionError,
  ActionNeeded,
  ActionReceipt,
  ActionStatus,
  ActionView,
  DeferActionResult,
  ExecuteActionInput,
  ExecuteActionResult,
} from "@solserver/core";
import { validActionNeeded } from "../fixtures/valid-contracts.js";
import { bad, type ContractCase, many, missing, str, unknownKey } from "./helpers.js";

const action = validActionNeeded();
const minimalAction = {
  request_id: "r",
  action_needed: true,
  action_id: "a",
  action_label: "L",
  action_kind: "k",
  action_summary_bullets: ["b"],
};
const execute = { action_id: "a", request_id: "r" };
const view = { ...action, status: "succeeded", receipt: { summary: "Done" } };
const result = { action_id: "a", status: "failed", error: { reason: "Timed out" } };

export const actionCases: Record<string, ContractCase> = {
  ActionStatus: {
    schema: ActionStatus,
    valid: ["proposed", "approved", "executing", "succeeded", "failed", "deferred"],
    invalid: [bad("unknown status", null, [], "cancelled")],
  },
  ActionNeeded: {
    schema: ActionNeeded,
    valid: [action, minimalAction, { ...minimalAction, action_summary_bullets: ["a", "b", "c"] }],
    invalid: [
      bad("request_id over 128", action, ["request_id"], str(129)),
      bad("action_needed false", action, ["action_needed"], false),
      bad("empty action_id", action, ["action_id"], ""),
      bad("action_label over 80", action, ["action_label"], str(81)),
      bad("action_kind over 64", action, ["action_kind"], str(65)),
      bad("no bullets", action, ["action_summary_bullets"], []),
      bad("bullets over 3", action, ["action_summary_bullets"], many(4, "b")),
      bad("bullet over 200", action, ["action_summary_bullets", 0], str(201)),
      bad("action_target over 80", action, ["action_target"], str(81)),
      bad("action_data_used empty", action, ["action_data_used"], ""),
      bad("action_why over 200", action, ["action_why"], str(201)),
      bad("payload preview not a record", action, ["action_payload_preview"], "x"),
      missing(action, ["action_kind"]),
      unknownKey(action),
    ],
  },
  ActionReceipt: {
    schema: ActionReceipt,
    valid: [{ summary: "Sent" }],
    invalid: [
      bad("empty summary", { summary: "s" }, ["summary"], ""),
      bad("summary over 500", { summary: "s" }, ["summary"], str(501)),
      unknownKey({ summary: "s" }),
    ],
  },
  ActionError: {
    schema: ActionError,
    valid: [{ reason: "Timed out" }],
    invalid: [
      bad("empty reason", { reason: "r" }, ["reason"], ""),
      bad("reason over 500", { reason: "r" }, ["reason"], str(501)),
      unknownKey({ reason: "r" }),
    ],
  },
  ExecuteActionInput: {
    schema: ExecuteActionInput,
    valid: [execute],
    invalid: [
      bad("empty action_id", execute, ["action_id"], ""),
      bad("request_id over 128", execute, ["request_id"], str(129)),
      missing(execute, ["request_id"]),
      unknownKey(execute),
    ],
  },
  ActionView: {
    schema: ActionView,
    valid: [
      view,
      { ...minimalAction, status: "proposed" },
      { ...minimalAction, status: "failed", error: { reason: "x" } },
    ],
    invalid: [
      bad("unknown status", view, ["status"], "done"),
      bad("receipt summary empty", view, ["receipt", "summary"], ""),
      bad("error not an object", view, ["error"], "boom"),
      bad("empty action_id", view, ["action_id"], ""),
      missing(view, ["status"]),
      unknownKey(view),
    ],
  },
  ExecuteActionResult: {
    schema: ExecuteActionResult,
    valid: [
      result,
      { action_id: "a", status: "succeeded", receipt: { summary: "Sent" } },
      { action_id: "a", status: "executing" },
    ],
    invalid: [
      bad("unknown status", result, ["status"], "done"),
      bad("error reason empty", result, ["error", "reason"], ""),
      bad("empty action_id", result, ["action_id"], ""),
      missing(result, ["action_id"]),
      unknownKey(result),
    ],
  },
  DeferActionResult: {
    schema: DeferActionResult,
    valid: [{ status: "deferred" }],
    invalid: [
      bad("other status", { status: "deferred" }, ["status"], "proposed"),
      unknownKey({ status: "deferred" }),
    ],
  },
};
