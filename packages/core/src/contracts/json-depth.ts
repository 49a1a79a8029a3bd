/**
 * True when `value` nests objects and arrays at most `max` levels deep (a scalar is depth 0). Walks
 * without recursion, so hostile depth cannot overflow the stack here; values that pass can then be
 * hashed and serialised recursively.
 */
export function jsonDepthWithin(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const [node, depth] = item;
    if (node === null || typeof node !== "object") continue;
    if (depth >= max) return false;
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return true;
}
