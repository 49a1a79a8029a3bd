import {
  AgencyCounters,
  DriveWorld,
  ErrorBody,
  SolError,
  Task,
  Thought,
  ThoughtRequestBody,
} from "@solserver/core";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AgencyService } from "../../agency/index.js";
import type { AppDeps } from "../app-deps.js";
import { queryInt } from "../query-int.js";

const Decision = z.object({ decision: z.string() }).loose();
const ThoughtIntakeReply = z.object({ thought: Thought, decision: Decision, task: Task.optional() });
const DriveTickBody = z.object({ world: DriveWorld }).strict();
const DriveTickReply = z.object({
  fired: z.boolean(),
  reason: z.string().optional(),
  thought: Thought.optional(),
  task: Task.optional(),
});
const ThinkBody = z.object({ world: DriveWorld }).strict();
const ThinkReply = z.object({
  called: z.boolean(),
  reason: z.string().optional(),
  thought: Thought.optional(),
  decision: Decision.optional(),
  task: Task.optional(),
});
const ThoughtListReply = z.object({
  thoughts: z.array(
    z.object({
      thought: Thought,
      broadcast: z.boolean(),
      decision: z.string().optional(),
      taskId: z.string().optional(),
    }),
  ),
});

/**
 * Agency routes (api.md §3 "Agency"): thought intake, drive tick, the thought generator
 * (`/v1/agency/think`), counters (reset is dev-only: 404 in production), and the thought history.
 */
export function registerAgencyRoutes(app: FastifyInstance, deps: AppDeps, agency: AgencyService): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.post(
    "/v1/thoughts",
    {
      schema: {
        summary: "Submit a thought: sanitized, deduplicated, recorded, maybe converted into a task",
        body: ThoughtRequestBody,
        response: { 200: ThoughtIntakeReply, 400: ErrorBody },
      },
    },
    async (req) => {
      const result = await agency.submitThought(req.tenantId, req.body);
      if (!result.ok) {
        throw new SolError("invalid_input", "Invalid thought.", {
          details: result.issues.map((i) => ({ path: (i.path ?? []).join("."), message: i.message })),
        });
      }
      return result.value;
    },
  );

  typed.get(
    "/v1/thoughts",
    {
      schema: {
        summary: "The thought history, most recent last",
        querystring: z.object({ limit: queryInt(1, 500).default(50) }),
        response: { 200: ThoughtListReply, 400: ErrorBody },
      },
    },
    async (req) => ({ thoughts: await agency.listThoughts(req.tenantId, req.query.limit) }),
  );

  typed.post(
    "/v1/agency/drive-tick",
    {
      schema: {
        summary: "Evaluate one drive tick against the given world state",
        body: DriveTickBody,
        response: { 200: DriveTickReply, 400: ErrorBody },
      },
    },
    async (req) => agency.driveTick(req.tenantId, req.body.world),
  );

  typed.post(
    "/v1/agency/think",
    {
      schema: {
        summary: "Generate one thought about the given world state with the configured model",
        body: ThinkBody,
        response: { 200: ThinkReply, 400: ErrorBody, 502: ErrorBody },
      },
    },
    async (req) => agency.think(req.tenantId, req.body.world),
  );

  typed.get(
    "/v1/agency/counters",
    { schema: { summary: "Agency counters of this session", response: { 200: AgencyCounters } } },
    async (req) => agency.counters(req.tenantId),
  );

  typed.post(
    "/v1/agency/counters/reset",
    {
      schema: {
        summary: "Reset the agency counters (not available in production)",
        response: { 200: AgencyCounters, 404: ErrorBody },
      },
    },
    async (req) => {
      if (deps.config.production) throw new SolError("not_found", "No route POST /v1/agency/counters/reset.");
      return agency.resetCounters(req.tenantId);
    },
  );
}
