/** Compares two texts by UTF-16 code units, the order the SQL stores sort ISO times and ids in. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
