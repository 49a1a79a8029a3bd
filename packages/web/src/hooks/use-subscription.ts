import { useEffect, useState } from "preact/hooks";

/** Re-renders whenever `subscribe` reports a change, returning `read()` each time. */
export function useSubscription<T>(subscribe: (listener: () => void) => () => void, read: () => T): T {
  const [, setVersion] = useState(0);
  useEffect(() => subscribe(() => setVersion((v) => v + 1)), [subscribe]);
  return read();
}
