export {
  echoEnvelope,
  type RecordedRequest,
  type ScriptEntry,
  type ScriptedUpstream,
  type ScriptedUpstreamOptions,
  type ScriptStep,
  startScriptedUpstream,
} from "./scripted-upstream.js";
