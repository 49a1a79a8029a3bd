import { clipText, SolError } from "@solserver/core";
import { z } from "zod";

/** Parses an executor's payload; a bad one fails with a reason naming the field (shown to the user). */
export function parsePayload<T>(schema: z.ZodType<T>, payload: unknown, what: string): T {
  const parsed = schema.safeParse(payload);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue?.path.join(".") || "payload";
  throw new SolError("invalid_input", `The ${what} is missing a valid ${field}.`, {
    details: parsed.error.issues.map((i) => ({ path: i.path.join("."), message: i.message })),
  });
}

/** An ISO date-time with an offset, or a calendar date. */
export const IsoDateTime = z.iso.datetime({ offset: true });
export const IsoDate = z.iso.date();

/** Clips text to a receipt-sized line (never through a surrogate pair, which the store refuses). */
export function clipLine(text: string, max: number): string {
  return clipText(text.replace(/\s+/g, " ").trim(), max);
}
