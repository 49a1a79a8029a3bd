export const CLIENT_VERSION = "0.1.0";
export * from "./captures/index.js";
export type { SolClientErrorOptions } from "./errors.js";
export {
  codeForStatus,
  isRetryableFailure,
  isSolClientError,
  SolClientError,
  toSolClientError,
} from "./errors.js";
export * from "./http/index.js";
export { randomId, randomUuid } from "./ids.js";
export * from "./queue/index.js";
export type {
  CaptureRecord,
  CaptureStatus,
  LocalMessage,
  QueuedTransmission,
  QueueSnapshot,
  RecordedError,
} from "./records.js";
export { CAPTURE_STATUSES, emptySnapshot, QUEUE_FORMAT_VERSION } from "./records.js";
export * from "./store/index.js";
