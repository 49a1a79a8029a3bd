export { readLocalJson, removeLocal, writeLocalJson } from "./local-json.js";
export {
  loadApiKey,
  loadThreadId,
  loadThreadIds,
  newThreadId,
  saveApiKey,
  saveThreadId,
} from "./local-settings.js";
