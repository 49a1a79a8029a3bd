/**
 * A per-tenant serial queue: intake and drive ticks of one tenant run one at a time inside a
 * process. Across processes the store's atomic writes (compare-and-set of the drive-tick timer,
 * `x = x + n` counters, signature upserts) keep instances from double-firing or losing steps.
 */
export function createTenantQueue() {
  const queues = new Map<string, Promise<unknown>>();

  /** Runs `work` after every earlier queued work of the same tenant has settled. */
  function serial<T>(tenantId: string, work: () => Promise<T>): Promise<T> {
    const previous = queues.get(tenantId) ?? Promise.resolve();
    const run = previous.then(work, work);
    const settled = run.then(
      () => undefined,
      () => undefined,
    );
    queues.set(tenantId, settled);
    void settled.then(() => {
      if (queues.get(tenantId) === settled) queues.delete(tenantId);
    });
    return run;
  }

  return { serial };
}

export type TenantQueue = ReturnType<typeof createTenantQueue>;
