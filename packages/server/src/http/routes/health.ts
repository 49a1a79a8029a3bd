import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppDeps } from "../app-deps.js";

const Health = z.object({ status: z.enum(["ok", "degraded"]), store: z.string(), provider: z.string() });

/** `GET /healthz`: liveness plus which store and provider are in use. */
export function registerHealthRoutes(app: FastifyInstance, deps: AppDeps): void {
  app
    .withTypeProvider<ZodTypeProvider>()
    .get(
      "/healthz",
      { schema: { security: [], response: { 200: Health, 503: Health } } },
      async (_req, reply) => {
        const alive = await deps.store.ping().catch(() => false);
        const body = {
          status: alive ? "ok" : "degraded",
          store: deps.store.kind,
          provider: deps.provider.name,
        } as const;
        return reply.code(alive ? 200 : 503).send(body);
      },
    );
}
