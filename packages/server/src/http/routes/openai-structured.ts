import { type Issue, type Result, SolError } from "@solserver/core";
import {
  type ClientFormat,
  type StructuredOutput,
  structuredOutputOf,
} from "../../structured-output/index.js";
import { invalidRequestSentence } from "../error-mapping.js";
import type { ChatResponseFormat } from "./openai-contracts.js";
import type { ResponsesTextFormat } from "./openai-responses-contracts.js";

/** The 400 of a facade request, naming each bad field (api.md §2 details beside OpenAI's shape). */
export function invalidFacadeRequest(issues: readonly Issue[]): SolError {
  const details = issues.map((i) => ({ path: (i.path ?? []).join("."), message: i.message }));
  return new SolError("invalid_input", invalidRequestSentence(details.map((d) => d.path)), { details });
}

/** The structured output a Chat Completions `response_format` asks for (undefined for text). */
export function chatStructuredOutput(
  format: ChatResponseFormat | null | undefined,
): Result<StructuredOutput | undefined> {
  if (format == null) return { ok: true, value: undefined };
  const client: ClientFormat =
    format.type === "json_schema"
      ? {
          type: "json_schema",
          name: format.json_schema.name,
          schema: format.json_schema.schema,
          strict: format.json_schema.strict,
          description: format.json_schema.description,
        }
      : { type: format.type };
  return structuredOutputOf(client, "response_format.json_schema");
}

/** The structured output a Responses `text.format` asks for (undefined for text). */
export function responsesStructuredOutput(
  format: ResponsesTextFormat | null | undefined,
): Result<StructuredOutput | undefined> {
  if (format == null) return { ok: true, value: undefined };
  const client: ClientFormat =
    format.type === "json_schema"
      ? {
          type: "json_schema",
          name: format.name,
          schema: format.schema,
          strict: format.strict,
          description: format.description,
        }
      : { type: format.type };
  return structuredOutputOf(client, "text.format");
}
