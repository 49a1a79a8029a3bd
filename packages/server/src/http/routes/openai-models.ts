import { SolError } from "@solserver/core";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppDeps } from "../app-deps.js";
import {
  OpenAiError,
  type OpenAiModel,
  OpenAiModelList,
  OpenAiModel as OpenAiModelSchema,
} from "./openai-contracts.js";

/** Longest model id a path may name (requests name one of at most 256 characters). */
const MAX_MODEL_ID_LENGTH = 256;

/** The alias every facade client may use whatever model is configured. */
export const SOL_MODEL_ALIAS = "sol";

/** The models the facade answers with: the configured provider model and the `sol` alias. */
export function facadeModels(deps: Pick<AppDeps, "provider">, createdSeconds: number): OpenAiModel[] {
  const configured: OpenAiModel = {
    id: deps.provider.model,
    object: "model",
    created: createdSeconds,
    owned_by: deps.provider.name,
  };
  const alias: OpenAiModel = {
    id: SOL_MODEL_ALIAS,
    object: "model",
    created: createdSeconds,
    owned_by: "solserver",
  };
  return configured.id === SOL_MODEL_ALIAS ? [configured] : [configured, alias];
}

/** `GET /v1/models` and `GET /v1/models/:model` in OpenAI's format. */
export function registerOpenAiModelRoutes(app: FastifyInstance, deps: AppDeps): void {
  const models = facadeModels(deps, Math.floor(Date.now() / 1000));
  const typed = app.withTypeProvider<ZodTypeProvider>();
  typed.get(
    "/v1/models",
    {
      config: { errorFormat: "openai" },
      schema: {
        summary: "Models of the OpenAI-compatible facade",
        response: { 200: OpenAiModelList, 401: OpenAiError },
      },
    },
    async () => ({ object: "list" as const, data: models }),
  );
  typed.get(
    "/v1/models/:model",
    {
      config: { errorFormat: "openai" },
      schema: {
        summary: "One model of the OpenAI-compatible facade",
        params: z.object({ model: z.string().min(1) }),
        response: { 200: OpenAiModelSchema, 401: OpenAiError, 404: OpenAiError },
      },
    },
    async (req) => findModel(models, req.params.model),
  );
  // Model ids may hold a slash (`org/name`, as many OpenAI-compatible servers name them), and clients
  // that put the id in the path as it is (OpenAI's Python client, curl) send it unencoded.
  typed.get(
    "/v1/models/*",
    { config: { errorFormat: "openai" }, schema: { hide: true, params: z.object({ "*": z.string() }) } },
    async (req) => {
      const id = req.params["*"];
      // The router refuses an over-long single id with a 400 before any route; a longer path does too.
      if (id.length > MAX_MODEL_ID_LENGTH) {
        throw new SolError("invalid_input", "Invalid request: check model; the id is far too long.", {
          details: [{ path: "model", message: `longer than ${MAX_MODEL_ID_LENGTH} characters` }],
        });
      }
      return findModel(models, id);
    },
  );
}

/** The model with this id, or OpenAI's 404. */
function findModel(models: readonly OpenAiModel[], id: string): OpenAiModel {
  const found = models.find((m) => m.id === id);
  if (!found) {
    throw new SolError("not_found", `The model '${id}' does not exist.`, { details: { field: "model" } });
  }
  return found;
}
