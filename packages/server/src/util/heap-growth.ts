import { setFlagsFromString } from "node:v8";

/** The node flag (V8's) that {@link applyHeapGrowth} sets; V8 accepts it with `-` or `_`. */
const FLAG = /^--heap[-_]growing[-_]percent(?:=|$)/;

/**
 * Sets how far V8 lets a heap grow past its live size before the next full collection:
 * `1 + percent / 100` times (100: double). V8's own factor reaches 4 on a machine with gigabytes of
 * memory, so a server holding about 41 MB live let its old space reach about 156 MB before
 * collecting. The flag is process-wide: it covers the store thread's heap too. `0` leaves V8's own
 * factor, and a `--heap-growing-percent` given to node itself wins. Returns whether it set the flag.
 */
export function applyHeapGrowth(percent: number, execArgv: readonly string[] = process.execArgv): boolean {
  if (!Number.isSafeInteger(percent) || percent <= 0) return false;
  if (execArgv.some((arg) => FLAG.test(arg))) return false;
  setFlagsFromString(`--heap-growing-percent=${percent}`);
  return true;
}
