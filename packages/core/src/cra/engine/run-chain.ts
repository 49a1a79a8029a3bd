import { type BuiltinContext, runBuiltin } from "./builtin-handlers.js";
import type { CompiledTrigger } from "./triggers.js";
import { CheckpointResult, type CheckpointResultParsed } from "./types.js";

/** A thrown value as a short message. */
export const errorText = (error: unknown) =>
  (error instanceof Error ? error.message : String(error)).slice(0, 500);

/**
 * Runs a trigger's built-in behaviour, then its plugin handlers, each with the input as rewritten so
 * far; stops at the first that blocks, throws or answers an invalid result.
 */
export async function runChain(
  trigger: CompiledTrigger,
  makeCtx: (input: string | undefined) => BuiltinContext,
  input: string | undefined,
  onFailure: (error: string) => void,
): Promise<{ results: CheckpointResultParsed[]; failed: boolean }> {
  const results: CheckpointResultParsed[] = [];
  let failed = false;
  let current = input;
  const steps: ((ctx: BuiltinContext) => unknown)[] = [
    ...(trigger.builtin
      ? [(ctx: BuiltinContext) => runBuiltin(trigger.builtin as NonNullable<typeof trigger.builtin>, ctx)]
      : []),
    ...trigger.handlers.map((h) => (ctx: BuiltinContext) => h.handle(ctx)),
  ];
  for (const step of steps) {
    let raw: unknown;
    try {
      raw = await step(makeCtx(current));
    } catch (error) {
      onFailure(errorText(error));
      failed = true;
      break;
    }
    const parsed = CheckpointResult.safeParse(raw);
    if (!parsed.success) {
      onFailure(`invalid handler result: ${parsed.error.issues[0]?.message ?? "unknown"}`);
      failed = true;
      break;
    }
    results.push(parsed.data);
    if (parsed.data.modifiedInput !== undefined) current = parsed.data.modifiedInput;
    if (!parsed.data.continue) break;
  }
  return { results, failed };
}
