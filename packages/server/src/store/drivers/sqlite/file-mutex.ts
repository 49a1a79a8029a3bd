/**
 * One FIFO lock per SQLite file, shared by every store in this process that opens that file.
 * better-sqlite3 blocks the thread while it waits for a lock (busy_timeout), so if two in-process
 * connections interleaved their transactions the waiting one would block the very thread that must
 * commit the other: a self-deadlock. Serialising them here avoids that; other processes are handled by
 * WAL, BEGIN IMMEDIATE and busy_timeout.
 */
export class FileMutex {
  #tail: Promise<void> = Promise.resolve();
  refs = 0;

  /** Resolves with a release function once every earlier holder has released. */
  async lock(): Promise<() => void> {
    let release!: () => void;
    const next = new Promise<void>((resolve) => {
      release = resolve;
    });
    const previous = this.#tail;
    this.#tail = previous.then(() => next);
    await previous;
    return release;
  }
}

/** Shared mutexes by resolved file path. */
const fileMutexes = new Map<string, FileMutex>();

/** The shared mutex of a file, one more reference to it (a private one for memory, `key` null). */
export function acquireFileMutex(key: string | null): FileMutex {
  if (key === null) return new FileMutex();
  let mutex = fileMutexes.get(key);
  if (mutex === undefined) {
    mutex = new FileMutex();
    fileMutexes.set(key, mutex);
  }
  mutex.refs += 1;
  return mutex;
}

/** Drops one reference; the last one forgets the file's mutex. */
export function releaseFileMutex(key: string | null, mutex: FileMutex): void {
  if (key === null) return;
  mutex.refs -= 1;
  if (mutex.refs === 0 && fileMutexes.get(key) === mutex) fileMutexes.delete(key);
}
