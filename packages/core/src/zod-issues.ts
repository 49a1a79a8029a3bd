import type { z } from "zod";
import type { Issue } from "./result.js";

/** Converts a Zod error into path-bearing Issues, optionally nested under `prefix`. */
export function issuesFromZod(error: z.ZodError, prefix: ReadonlyArray<string | number> = []): Issue[] {
  return error.issues.map((issue) => ({
    code: issue.code,
    message: issue.message,
    path: [...prefix, ...issue.path.map((key) => (typeof key === "number" ? key : String(key)))],
  }));
}
