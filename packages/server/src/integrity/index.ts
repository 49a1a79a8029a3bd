export { createKeyring, type Keyring, keyIdOf, type MacCheck, MIN_SECRET_BYTES } from "./keyring.js";
export {
  type ResolvedKeyring,
  resolveKeyring,
  type SecretSettings,
  type SecretSource,
} from "./resolve-secret.js";
export { type TraceVerification, type TraceVerifyReason, verifyTenantTraces } from "./verify-traces.js";
