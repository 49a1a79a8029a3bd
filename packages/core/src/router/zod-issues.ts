import type { z } from "zod";
import type { Issue } from "../result.js";

/** Converts Zod issues to the library's `Issue` shape. */
export function zodIssues(error: z.ZodError): Issue[] {
  return error.issues.map((issue) => ({
    code: issue.code,
    message: issue.message,
    path: issue.path.filter((key): key is string | number => typeof key !== "symbol"),
  }));
}
