import {
  ChatResponse,
  CustomToolCall,
  ErrorBody,
  FunctionToolCall,
  ToolCall,
  TruncatedFinishReason,
  Violation,
} from "@solserver/core";
import { BreakpointDecisionSchema } from "../../src/contracts/chat-response.js";
import { validChatResponse } from "../fixtures/valid-contracts.js";
import { bad, type ContractCase, missing, str, unknownKey } from "./helpers.js";

const response = validChatResponse();
const violation = response.validation.violations[0];
const toolCall = {
  id: "call_1",
  type: "function",
  function: { name: "get_weather", arguments: '{"city":"Paris"}' },
};
const customCall = { id: "call_2", type: "custom", custom: { name: "run_sql", input: "select 1" } };
const withToolCalls = {
  ...response,
  assistant: { ...response.assistant, content: "", toolCalls: [toolCall] },
};
const errorBody = {
  error: { code: "invalid_input", message: "Bad field", details: [{ path: ["message"] }] },
};

export const chatResponseCases: Record<string, ContractCase> = {
  BreakpointDecisionSchema: {
    schema: BreakpointDecisionSchema,
    valid: ["must", "should", "skip"],
    invalid: [bad("unknown decision", null, [], "maybe")],
  },
  Violation: {
    schema: Violation,
    valid: [violation],
    invalid: [
      bad("code over 64", violation, ["code"], str(65)),
      bad("empty message", violation, ["message"], ""),
      bad("source over 128", violation, ["source"], str(129)),
      bad("enforcement off", violation, ["enforcement"], "off"),
      unknownKey(violation),
    ],
  },
  FunctionToolCall: {
    schema: FunctionToolCall,
    valid: [toolCall, { ...toolCall, function: { name: "noop", arguments: "" } }],
    invalid: [
      missing(toolCall, ["id"]),
      bad("type not function", toolCall, ["type"], "custom"),
      bad("empty function name", toolCall, ["function", "name"], ""),
      bad("arguments not a string", toolCall, ["function", "arguments"], { city: "Paris" }),
      unknownKey(toolCall),
      unknownKey(toolCall, ["function"]),
    ],
  },
  CustomToolCall: {
    schema: CustomToolCall,
    valid: [customCall, { ...customCall, custom: { name: "run_sql", input: "" } }],
    invalid: [
      missing(customCall, ["id"]),
      bad("type not custom", customCall, ["type"], "function"),
      bad("empty custom name", customCall, ["custom", "name"], ""),
      bad("input not a string", customCall, ["custom", "input"], { sql: "select 1" }),
      unknownKey(customCall),
      unknownKey(customCall, ["custom"]),
    ],
  },
  ToolCall: {
    schema: ToolCall,
    valid: [toolCall, customCall],
    invalid: [
      missing(toolCall, ["id"]),
      bad("unknown type", toolCall, ["type"], "web_search"),
      bad("empty function name", toolCall, ["function", "name"], ""),
      bad("empty custom name", customCall, ["custom", "name"], ""),
      unknownKey(toolCall),
    ],
  },
  TruncatedFinishReason: {
    schema: TruncatedFinishReason,
    valid: ["length", "content_filter"],
    invalid: [bad("stop is not a truncation", null, [], "stop")],
  },
  ChatResponse: {
    schema: ChatResponse,
    valid: [
      response,
      withToolCalls,
      { ...withToolCalls, assistant: { ...withToolCalls.assistant, toolCalls: [toolCall, customCall] } },
      { ...response, assistant: { ...response.assistant, finishReason: "length" } },
      {
        ...response,
        assistant: { ...response.assistant, content: "I can't help.", refusal: "I can't help." },
      },
      {
        ...response,
        threadMemento: null,
        actions: [],
        trace: { traceRunId: "run-1" },
        usage: { modelCalls: 0 },
      },
    ],
    invalid: [
      missing(response, ["transmissionId"]),
      bad("requestId not a string", response, ["requestId"], 1),
      missing(response, ["threadId"]),
      missing(response, ["assistant", "content"]),
      unknownKey(response, ["assistant"]),
      bad("empty toolCalls", withToolCalls, ["assistant", "toolCalls"], []),
      missing(withToolCalls, ["assistant", "toolCalls", 0, "function"]),
      bad("finishReason stop", response, ["assistant", "finishReason"], "stop"),
      bad("empty refusal", response, ["assistant", "refusal"], ""),
      bad("modeDecision step 3", response, ["modeDecision", "step"], 3),
      bad("unknown breakpoint decision", response, ["breakpoint", "decision"], "maybe"),
      bad("peakGuardrailActive not boolean", response, ["breakpoint", "peakGuardrailActive"], "yes"),
      bad("memento arc over 200", response, ["threadMemento", "arc"], str(201)),
      bad("action without bullets", response, ["actions", 0, "action_summary_bullets"], []),
      bad("validation.passed not boolean", response, ["validation", "passed"], 1),
      bad("violation enforcement unknown", response, ["validation", "violations", 0, "enforcement"], "x"),
      bad("trace event hash bad", response, ["trace", "events", 0, "hash"], "zz"),
      bad("negative modelCalls", response, ["usage", "modelCalls"], -1),
      bad("fractional inputTokens", response, ["usage", "inputTokens"], 1.5),
      bad("provider offline not boolean", response, ["provider", "offline"], "no"),
      unknownKey(response),
      unknownKey(response, ["usage"]),
      unknownKey(response, ["breakpoint"]),
    ],
  },
  ErrorBody: {
    schema: ErrorBody,
    valid: [errorBody, { error: { code: "not_found", message: "No such thread" } }],
    invalid: [
      missing(errorBody, ["error", "code"]),
      bad("message not a string", errorBody, ["error", "message"], 5),
      unknownKey(errorBody),
      unknownKey(errorBody, ["error"]),
    ],
  },
};
