import { type ActionExecutor, SolError } from "@solserver/core";

/** The executors the gate can run, by `action_kind`. */
export interface ExecutorRegistry {
  get(kind: string): ActionExecutor | undefined;
  kinds(): string[];
}

/** Builds a registry; a later executor of the same kind replaces an earlier one (tests, embedders). */
export function createExecutorRegistry(executors: readonly ActionExecutor[]): ExecutorRegistry {
  const byKind = new Map<string, ActionExecutor>();
  for (const executor of executors) {
    if (
      typeof executor?.kind !== "string" ||
      executor.kind === "" ||
      typeof executor.execute !== "function"
    ) {
      throw new SolError(
        "invalid_input",
        "An action executor needs a non-empty kind and an execute function.",
      );
    }
    byKind.set(executor.kind, executor);
  }
  return Object.freeze({
    get: (kind: string) => byKind.get(kind),
    kinds: () => [...byKind.keys()].sort(),
  });
}
