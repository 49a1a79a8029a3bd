export { type DueTimeContext, resolveDueTime } from "./due-time.js";
export { detectMemoryRequest, memoryAction } from "./memory-request.js";
export { buildOfflineEnvelope } from "./offline-envelope.js";
export {
  createOfflineProvider,
  OFFLINE_MODEL,
  OFFLINE_PROVIDER_NAME,
  type OfflineProviderOptions,
} from "./offline-provider.js";
export { detectReminder, type ReminderRequest } from "./reminder.js";
export { offlineModeDecision } from "./selector.js";
