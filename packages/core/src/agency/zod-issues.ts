import type { z } from "zod";
import type { Issue } from "../result.js";

/** Converts Zod issues into the library's `Issue` shape. */
export function toIssues(error: z.ZodError): Issue[] {
  return error.issues.map((i) => ({
    code: i.code,
    message: i.message,
    path: i.path.map((p) => (typeof p === "symbol" ? String(p) : p)),
  }));
}
