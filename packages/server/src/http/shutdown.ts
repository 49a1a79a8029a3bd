import type { FastifyInstance } from "fastify";

/** How often idle keep-alive sockets are reaped while the server drains. */
const REAP_INTERVAL_MS = 50;

/**
 * Marks the app as closing as soon as `close()` starts (before the listener stops), and while it
 * drains keeps closing the keep-alive sockets that in-flight requests leave idle: Node's
 * `server.close()` reaps idle sockets only once, so a client's socket freed after that would
 * otherwise hold shutdown open for the whole keep-alive timeout.
 */
export function trackShutdown(app: FastifyInstance): { readonly closing: boolean } {
  const state = { closing: false };
  app.addHook("preClose", async () => {
    state.closing = true;
    const reaper = setInterval(() => app.server.closeIdleConnections(), REAP_INTERVAL_MS);
    reaper.unref();
    app.server.once("close", () => clearInterval(reaper));
  });
  return state;
}
