/**
 * OpenAPI 3.0.3 honours `nullable: true` only beside a `type`, so `{ nullable: true, anyOf: [...] }` (what
 * the zod transform writes for a nullable union) documents null as refused. This moves it into the
 * branches: each typed branch of an anyOf (the first one of a oneOf, which must match once) takes it.
 * Returns a copy; everything else is kept as it is.
 */
export function nullableInBranches(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(nullableInBranches);
  if (schema === null || typeof schema !== "object") return schema;
  const node: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) node[key] = nullableInBranches(value);
  if (node.nullable !== true || node.type !== undefined) return node;
  const key = Array.isArray(node.anyOf) ? "anyOf" : Array.isArray(node.oneOf) ? "oneOf" : null;
  if (key === null) return node;
  const branches = node[key] as Record<string, unknown>[];
  const first = branches.findIndex((b) => b.type !== undefined);
  if (first === -1) return node;
  delete node.nullable;
  node[key] = branches.map((branch, i) =>
    branch.type !== undefined && (key === "anyOf" || i === first) ? { ...branch, nullable: true } : branch,
  );
  return node;
}
