/** Work on one large body; calls `release` once its synchronous part is done. */
type GatedWork = (release: () => void) => void;

/**
 * Runs the work on large request bodies one at a time, each in its own event-loop turn (issue 24).
 * Parsing, validating and hashing a ~1 MiB body holds the event loop for tens of milliseconds; when
 * several arrive together they ran back to back and every other request (`/healthz` included) waited
 * for all of them. Through the gate the next large body starts in a `setImmediate` after the last
 * one's synchronous work (its route handler up to its first await, too), so requests that arrived
 * meanwhile run in between: a small request waits for at most one large body, not for the burst.
 */
export function createBodyGate(): { run(work: GatedWork): void } {
  const waiting: GatedWork[] = [];
  let busy = false;
  const start = (work: GatedWork): void => {
    let released = false;
    work(() => {
      if (released) return;
      released = true;
      setImmediate(next);
    });
  };
  const next = (): void => {
    const work = waiting.shift();
    if (work === undefined) busy = false;
    else start(work);
  };
  return {
    run(work) {
      if (busy) {
        waiting.push(work);
        return;
      }
      busy = true;
      start(work);
    },
  };
}
