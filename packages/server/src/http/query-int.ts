import { z } from "zod";

/**
 * A whole number in a query string, written in decimal digits and within [min, max]. `z.coerce.number()`
 * read `?afterSeq=` (empty) as 0, and `0x10` or `1e3` as numbers, so a typo paged from the wrong place.
 */
export function queryInt(min: number, max: number) {
  return z
    .string()
    .regex(/^[0-9]{1,16}$/, "must be a whole number written in decimal digits")
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));
}
