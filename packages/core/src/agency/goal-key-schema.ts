import { z } from "zod";

/** `action:target`; an empty or blank goalKey means none (the spec's `goalKey || undefined`). */
export const OptionalGoalKey = z.preprocess(
  (value) => (typeof value === "string" && value.trim() === "" ? undefined : value),
  z.string().min(1).max(200).optional(),
);
