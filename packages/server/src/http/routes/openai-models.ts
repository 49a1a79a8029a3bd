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
    async (req) => {
      const found = models.find((m) => m.id === req.params.model);
      if (!found) {
        throw new SolError("not_found", `The model '${req.params.model}' does not exist.`, {
          details: { field: "model" },
        });
      }
      return found;
    },
  );
}
