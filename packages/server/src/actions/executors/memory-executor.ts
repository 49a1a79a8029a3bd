import {
  type ActionExecutor,
  type ActionReceipt,
  deriveMemorySummary,
  type MemoryRecord,
  type MemoryStore,
  SaveMemoryPayload,
  SolError,
} from "@solserver/core";
import { canonicalJson, sha256Hex } from "../../store/index.js";
import { clipLine, parsePayload } from "./payload.js";

// One memory per action: its id and request id are the action's, so a retried execution (or the
// recovery of an interrupted one) finds the memory instead of saving a second.
const memoryIdOf = (actionId: string) => `mem_${actionId}`;

function receiptOf(memory: MemoryRecord): ActionReceipt {
  return { summary: clipLine(`Remembered: ${memory.summary}`, 500) };
}

/** `save_memory`: saves the approved payload as a memory of the tenant (api.md §3 "Memories"). */
export function createMemoryExecutor(deps: { readonly memories: MemoryStore }): ActionExecutor {
  return {
    kind: "save_memory",
    async execute(payload, ctx) {
      const body = parsePayload(SaveMemoryPayload, payload, "memory");
      const result = await deps.memories.save({
        tenantId: ctx.tenantId,
        memoryId: memoryIdOf(ctx.actionId),
        requestId: `action:${ctx.actionId}`,
        bodyHash: sha256Hex(canonicalJson(body)),
        text: body.text,
        summary: body.summary ?? deriveMemorySummary(body.text),
        domainFlags: body.domainFlags ?? [],
        threadId: ctx.threadId,
        source: "assistant",
        createdAt: new Date(ctx.nowMs).toISOString(),
      });
      if (!result.ok)
        throw new SolError("internal", `The memory of action ${ctx.actionId} differs from its earlier save.`);
      return receiptOf(result.memory);
    },
    async findResult(ctx) {
      const memory = await deps.memories.get(ctx.tenantId, memoryIdOf(ctx.actionId));
      return memory === null ? null : receiptOf(memory);
    },
  };
}
