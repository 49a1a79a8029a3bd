export { type AppEnv, AppEnvContext, useAppEnv } from "./app-context.js";
export { useChip } from "./use-chip.js";
export { useDialogFocus } from "./use-dialog-focus.js";
export { useSubscription } from "./use-subscription.js";
export { type ThreadItem, useThread } from "./use-thread.js";
