import type { z } from "zod";
import type { Issue } from "../result.js";

/**
 * How a symbol key in a Zod issue path is reported: as its `String()` form (the default), or left
 * out (the router's configs are plain JSON, so a symbol there is noise, not a location).
 */
export type SymbolPathKeys = "stringify" | "drop";

/** Converts a Zod error into path-bearing Issues, optionally nested under `prefix`. */
export function issuesFromZod(
  error: z.ZodError,
  prefix: ReadonlyArray<string | number> = [],
  symbolKeys: SymbolPathKeys = "stringify",
): Issue[] {
  return error.issues.map((issue) => ({
    code: issue.code,
    message: issue.message,
    path: [...prefix, ...pathKeys(issue.path, symbolKeys)],
  }));
}

function pathKeys(path: ReadonlyArray<PropertyKey>, symbolKeys: SymbolPathKeys): Array<string | number> {
  const keys: Array<string | number> = [];
  for (const key of path) {
    if (typeof key !== "symbol") keys.push(key);
    else if (symbolKeys === "stringify") keys.push(String(key));
  }
  return keys;
}
