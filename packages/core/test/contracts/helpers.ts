import type { z } from "zod";

export type Path = readonly (string | number)[];

/** A malformed input and the path at which the schema must report it. */
export interface InvalidCase {
  readonly name: string;
  readonly input: unknown;
  readonly path: Path;
}

/** Valid examples and malformed variants of one exported schema. */
export interface ContractCase {
  readonly schema: z.ZodType;
  readonly valid: readonly unknown[];
  readonly invalid: readonly InvalidCase[];
}

/** Marks a field to delete in `withAt`. */
export const OMIT: unique symbol = Symbol("omit");

/** A deep copy of `base` with the value at `path` replaced (or deleted with OMIT). */
export function withAt(base: unknown, path: Path, value: unknown): unknown {
  const copy: unknown = structuredClone(base);
  if (path.length === 0) return value;
  let cursor = copy as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) cursor = cursor[key] as Record<string | number, unknown>;
  const last = path.at(-1) as string | number;
  if (value === OMIT) delete cursor[last];
  else cursor[last] = value;
  return copy;
}

/** Shorthand: an invalid case whose malformed value sits at `path` and is reported there. */
export function bad(name: string, base: unknown, path: Path, value: unknown): InvalidCase {
  return { name, input: withAt(base, path, value), path };
}

/** A missing required field: reported at the field's own path. */
export function missing(base: unknown, path: Path): InvalidCase {
  return { name: `missing ${path.join(".")}`, input: withAt(base, path, OMIT), path };
}

/** An unknown key added to the strict object at `objectPath`: reported at the object's path. */
export function unknownKey(base: unknown, objectPath: Path = []): InvalidCase {
  return {
    name: `unknown key in ${objectPath.join(".") || "root"}`,
    input: withAt(base, [...objectPath, "extra"], 1),
    path: objectPath,
  };
}

/** A string of `n` characters. */
export function str(n: number): string {
  return "x".repeat(n);
}

/** An array of `n` copies of `item`. */
export function many<T>(n: number, item: T): T[] {
  return Array.from({ length: n }, () => structuredClone(item));
}
