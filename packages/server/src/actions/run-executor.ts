import {
  type ActionExecutionContext,
  type ActionExecutor,
  ActionReceipt,
  isSolError,
  SolError,
} from "@solserver/core";
import type { ExecutionOutcome } from "../store/index.js";
import { clipLine } from "./executors/payload.js";

const UNEXPECTED = "The action failed unexpectedly.";

/** The user-visible reason of a failure: a SolError's message; anything else stays generic. */
export function failureReason(error: unknown): string {
  if (isSolError(error) && error.message.trim() !== "") return clipLine(error.message, 300);
  return UNEXPECTED;
}

/**
 * Runs one executor with a time limit: when it runs out the signal aborts and the run fails, so no
 * execution outlives the claim's lease. Never throws: every ending is an outcome.
 */
export async function runExecutor(
  executor: ActionExecutor | undefined,
  kind: string,
  payload: Readonly<Record<string, unknown>>,
  ctx: Omit<ActionExecutionContext, "signal">,
  timeoutMs: number,
): Promise<ExecutionOutcome> {
  if (executor === undefined) {
    return {
      status: "failed",
      error: { reason: clipLine(`No executor handles actions of kind "${kind}".`, 300) },
    };
  }
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(
        new SolError("unavailable", `The action did not finish within ${Math.ceil(timeoutMs / 1000)} s.`),
      );
    }, timeoutMs);
  });
  try {
    const receipt = await Promise.race([
      executor.execute(payload, { ...ctx, signal: controller.signal }),
      timeout,
    ]);
    // It ran: a missing summary must not turn a done action into a failure someone would retry.
    const summary = clipLine(typeof receipt?.summary === "string" ? receipt.summary : "", 500);
    return { status: "succeeded", receipt: ActionReceipt.parse({ summary: summary || "Done." }) };
  } catch (error) {
    return { status: "failed", error: { reason: failureReason(error) } };
  } finally {
    clearTimeout(timer);
  }
}
