/** One problem found by a validator or engine; `path` points into the input. */
export interface Issue {
  readonly code: string;
  readonly message: string;
  readonly path?: ReadonlyArray<string | number>;
}

/** Result union returned by validators and engines instead of throwing (zod's safeParse style). */
export type Result<T, I = Issue> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly issues: readonly I[] };

/** Wraps a success value. */
export function ok<T>(value: T): { readonly ok: true; readonly value: T } {
  return { ok: true, value };
}

/** Wraps one or more issues. */
export function fail<I = Issue>(...issues: I[]): { readonly ok: false; readonly issues: readonly I[] } {
  return { ok: false, issues };
}
