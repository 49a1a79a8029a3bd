/** Reads a JSON value from localStorage; null when absent, unreadable or storage is unavailable. */
export function readLocalJson(key: string): unknown {
  try {
    const raw = window.localStorage.getItem(key);
    return raw === null ? null : JSON.parse(raw);
  } catch {
    return null;
  }
}

/** Writes a JSON value to localStorage; a full or disabled storage only loses persistence. */
export function writeLocalJson(key: string, value: unknown): void {
  try {
    window.localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Private mode or quota: the app keeps working from memory.
  }
}

/** Removes a key from localStorage, ignoring unavailable storage. */
export function removeLocal(key: string): void {
  try {
    window.localStorage.removeItem(key);
  } catch {
    // Nothing stored, nothing to remove.
  }
}
