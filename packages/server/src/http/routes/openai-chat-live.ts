import type { TurnOutcome, TurnStreamHead } from "../../orchestrator/index.js";
import type { ChatCompletion, ChatCompletionChunk } from "./openai-contracts.js";
import { actionsOf, type LiveFacadeStream, type LiveFormat } from "./openai-live.js";
import { completionId, toChunks } from "./openai-mapping.js";

/** The Chat Completions wire format of a live stream: a role chunk, then one content chunk per release. */
export function liveChatFormat(model: string, includeUsage: boolean): LiveFormat {
  const chunk = (head: TurnStreamHead, delta: ChatCompletionChunk["choices"][number]["delta"]) => ({
    id: completionId(head.transmissionId),
    object: "chat.completion.chunk",
    created: Math.floor(Date.parse(head.createdAt) / 1000),
    model,
    choices: [{ index: 0, delta, finish_reason: null, logprobs: null }],
    ...(includeUsage ? { usage: null } : {}),
  });
  return {
    open: (sse, head) => sse.sendData(chunk(head, { role: "assistant", content: "" })),
    delta: (sse, head, text) => sse.sendData(chunk(head, { content: text })),
    fail: (sse, error) => sse.sendData({ error }),
  };
}

/**
 * The chunks of a completion with the turn's trailer: the finish chunk carries `x_sol_actions` (the
 * `x-sol-actions` header's list, known only once the reply is complete) and `x_sol_breakpoint`.
 */
export function withTrailer(chunks: readonly ChatCompletionChunk[], outcome: TurnOutcome): unknown[] {
  const actions = actionsOf(outcome);
  return chunks.map((c) =>
    c.choices[0]?.finish_reason == null
      ? c
      : {
          ...c,
          x_sol_breakpoint: outcome.response.breakpoint.decision,
          ...(actions.length > 0 ? { x_sol_actions: actions } : {}),
        },
  );
}

/** Ends a live stream: the text not yet sent (the guard's held tail), tool calls, finish, usage, [DONE]. */
export function finishLiveChat(
  live: LiveFacadeStream,
  completion: ChatCompletion,
  outcome: TurnOutcome,
  includeUsage: boolean,
): void {
  const choice = completion.choices[0];
  const content = choice?.message.content ?? "";
  // The turn settles its stream on the reply (generation.ts), so the content continues what was sent.
  const rest = content.startsWith(live.shown) ? content.slice(live.shown.length) : "";
  const tail = choice
    ? { ...completion, choices: [{ ...choice, message: { ...choice.message, content: rest } }] }
    : completion;
  // toChunks opens with the role chunk, which the live stream has sent already.
  const chunks = toChunks(tail, includeUsage).slice(1);
  for (const c of withTrailer(chunks, outcome)) live.sse.sendData(c);
  live.sse.sendData("[DONE]");
  live.sse.end();
}
