/** Time source passed into engines and services; core never reads the wall clock itself. */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

/** Makes unique identifiers; the server passes a random one, tests a counter. */
export type IdGenerator = (prefix: string) => string;

/** A clock that reads a settable value: for tests and simulations. */
export function createManualClock(startMs = 0): Clock & { set(ms: number): void; advance(ms: number): void } {
  let current = startMs;
  return {
    now: () => current,
    set: (ms) => {
      current = ms;
    },
    advance: (ms) => {
      current += ms;
    },
  };
}
