import type { Issue, Result } from "@solserver/core";
import { fail, ok } from "@solserver/core";

/** Checks an unknown value and returns it typed, or the issues found. */
export type Validator<T> = (value: unknown) => Result<T>;

/** The part of a Zod schema this package uses, so no direct zod import is needed. */
export interface SafeParser<T> {
  safeParse(value: unknown):
    | { readonly success: true; readonly data: T }
    | {
        readonly success: false;
        readonly error: {
          readonly issues: ReadonlyArray<{
            readonly code?: string;
            readonly message: string;
            readonly path: ReadonlyArray<PropertyKey>;
          }>;
        };
      };
}

const pathOf = (path: ReadonlyArray<PropertyKey>): Array<string | number> =>
  path.map((p) => (typeof p === "number" ? p : String(p)));

/** Adapts a core Zod schema to a Validator. */
export function fromSchema<T>(schema: SafeParser<T>): Validator<T> {
  return (value) => {
    const parsed = schema.safeParse(value);
    if (parsed.success) return ok(parsed.data);
    return fail(
      ...parsed.error.issues.map(
        (i): Issue => ({ code: i.code ?? "invalid", message: i.message, path: pathOf(i.path) }),
      ),
    );
  };
}

type FieldKind = "string" | "number" | "boolean" | "object" | "array" | "unknown";

/** Field spec for `shape`: a kind, `?` suffix for optional. */
export type FieldSpec = FieldKind | `${FieldKind}?`;

function kindOf(value: unknown): FieldKind {
  if (Array.isArray(value)) return "array";
  if (value !== null && typeof value === "object") return "object";
  if (typeof value === "string") return "string";
  if (typeof value === "number") return "number";
  if (typeof value === "boolean") return "boolean";
  return "unknown";
}

/** True for a plain JSON object (not null, not an array). */
export const isObject = (value: unknown): value is Record<string, unknown> => kindOf(value) === "object";

/**
 * Checks the top-level fields of a response that has no core schema yet (extra fields are kept);
 * `extra` runs further checks on fields that do have one.
 */
export function shape<T>(
  fields: Readonly<Record<string, FieldSpec>>,
  extra?: (value: Record<string, unknown>) => Issue[],
): Validator<T> {
  return (value) => {
    if (!isObject(value)) return fail({ code: "invalid_type", message: "expected an object", path: [] });
    const issues: Issue[] = [];
    for (const [key, spec] of Object.entries(fields)) {
      const optional = spec.endsWith("?");
      const kind = (optional ? spec.slice(0, -1) : spec) as FieldKind;
      const field = value[key];
      if (field === undefined) {
        if (!optional) issues.push({ code: "missing", message: `${key} is required`, path: [key] });
        continue;
      }
      if (kind !== "unknown" && kindOf(field) !== kind) {
        issues.push({ code: "invalid_type", message: `${key} must be ${kind}`, path: [key] });
      }
    }
    if (issues.length === 0 && extra) issues.push(...extra(value));
    return issues.length === 0 ? ok(value as T) : fail(...issues);
  };
}

/** Validates every item of an array; issue paths start with the item index. */
export function arrayOf<T>(validator: Validator<T>): Validator<T[]> {
  return (value) => {
    if (!Array.isArray(value)) return fail({ code: "invalid_type", message: "expected an array", path: [] });
    const issues = value.flatMap((item, i) => {
      const r = validator(item);
      return r.ok ? [] : r.issues.map((issue) => ({ ...issue, path: [i, ...(issue.path ?? [])] }));
    });
    return issues.length === 0 ? ok(value as T[]) : fail(...issues);
  };
}

/** Runs a validator on one field and prefixes the issue paths with the field name. */
export function fieldIssues<T>(
  value: Record<string, unknown>,
  key: string,
  validator: Validator<T>,
): Issue[] {
  if (value[key] === undefined) return [];
  const result = validator(value[key]);
  if (result.ok) return [];
  return result.issues.map((i) => ({ ...i, path: [key, ...(i.path ?? [])] }));
}

/** One line naming each issue, for error messages. */
export function describeIssues(issues: readonly Issue[], max = 5): string {
  const shown = issues
    .slice(0, max)
    .map((i) => `${i.path && i.path.length > 0 ? i.path.join(".") : "(root)"}: ${i.message}`);
  return shown.join("; ") + (issues.length > max ? `; and ${issues.length - max} more` : "");
}

/**
 * The JSON form of `value`, which every queue store holds alike (IndexedDB's structured clone
 * refuses functions that JSON drops), or why it has none: undefined, a function or symbol, a BigInt,
 * a cycle (a stored queue must load again after a restart).
 */
export function asJson(value: unknown, path: ReadonlyArray<string | number> = []): Result<unknown> {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    return fail({ code: "not_json", message: `must be JSON (${why})`, path: [...path] });
  }
  if (text === undefined) return fail({ code: "not_json", message: "must be a JSON value", path: [...path] });
  return ok(JSON.parse(text) as unknown);
}
