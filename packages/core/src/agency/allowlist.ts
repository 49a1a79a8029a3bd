/** A frozen allowlist: the values in order (an array) that also answers `has`, as a set would. */
export type Allowlist<T extends readonly string[]> = Readonly<T> & {
  /** True when `value` is on the list. */
  has(value: unknown): value is T[number];
};

/**
 * Freezes `values` and gives it a `has` method. The agency contract calls its allowlists "the set"
 * while zod's enums need a tuple, so one value serves both readings.
 */
export function allowlist<const T extends readonly string[]>(values: T): Allowlist<T> {
  const members = new Set<unknown>(values);
  const list = [...values];
  Object.defineProperty(list, "has", { value: (value: unknown) => members.has(value), enumerable: false });
  return Object.freeze(list) as unknown as Allowlist<T>;
}
