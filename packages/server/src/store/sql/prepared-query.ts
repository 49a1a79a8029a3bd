import { type Compilable, CompiledQuery, type Kysely, type QueryResult } from "kysely";
import type { StoreContext } from "./context.js";
import type { StoreDatabase, StoreDialect } from "./schema.js";

/** Stands in for argument `i` while the query is compiled; never a value a store writes. */
const sentinel = (i: number) => `\u0000sol-prepared-arg:${i}\u0000`;

interface Template {
  readonly sql: string;
  /** Per parameter: the argument index it takes, or a constant the builder wrote itself. */
  readonly slots: ReadonlyArray<{ readonly arg: number } | { readonly constant: unknown }>;
}

/**
 * A query whose SQL text depends only on its shape, compiled once per dialect and then run with new
 * argument values: on a turn's hot path Kysely's building and compiling cost more than SQLite ran.
 * `build` must put each argument straight into a value position (a where value, an inserted or set
 * value, a limit), declare each as a plain parameter (no defaults, no rest) and never let one decide
 * the shape; preparing checks that every argument became a parameter and throws otherwise.
 */
export function preparedQuery<Args extends readonly unknown[], Row>(
  build: (db: Kysely<StoreDatabase>, ...args: Args) => Compilable<Row>,
): (ctx: Pick<StoreContext, "db" | "dialect">, ...args: Args) => Promise<QueryResult<Row>> {
  // The builder's own parameter count (no defaults or rest parameters), less `db`.
  const arity = Math.max(0, build.length - 1);
  const templates = new Map<StoreDialect, Template>();

  const prepare = (db: Kysely<StoreDatabase>): Template => {
    const placeholders = Array.from({ length: arity }, (_, i) => sentinel(i)) as unknown as Args;
    const compiled = build(db, ...placeholders).compile();
    const seen = new Array<number>(arity).fill(0);
    const slots = compiled.parameters.map((value) => {
      const arg = typeof value === "string" ? placeholders.indexOf(value) : -1;
      if (arg < 0) return { constant: value };
      seen[arg] = (seen[arg] ?? 0) + 1;
      return { arg };
    });
    if (seen.some((n) => n === 0)) {
      throw new Error(`preparedQuery: an argument did not become a parameter in: ${compiled.sql}`);
    }
    return { sql: compiled.sql, slots };
  };

  return async (ctx, ...args) => {
    let template = templates.get(ctx.dialect);
    if (template === undefined) {
      template = prepare(ctx.db);
      templates.set(ctx.dialect, template);
    }
    const params = template.slots.map((slot) => ("arg" in slot ? args[slot.arg] : slot.constant));
    return ctx.db.executeQuery<Row>(CompiledQuery.raw(template.sql, params));
  };
}
