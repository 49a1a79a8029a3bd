export { type BuildAppOptions, buildApp } from "./app.js";
export type { AppDeps } from "./app-deps.js";
export {
  type ErrorFormat,
  type HttpErrorBody,
  invalidRequestSentence,
  type MappedError,
  mapErrorFor,
  mapErrorToHttp,
  mapErrorToOpenAi,
  type OpenAiErrorBody,
} from "./error-mapping.js";
export {
  type ConcurrencyLimit,
  createConcurrencyLimit,
  createRequestLimits,
  type RequestLimitOptions,
  type RequestLimits,
} from "./limits/index.js";
export {
  type Caller,
  type CallerResolver,
  createCallerResolver,
  DEFAULT_TENANT,
} from "./tenancy.js";
