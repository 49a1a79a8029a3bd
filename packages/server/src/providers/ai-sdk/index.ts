export { resolveSdkOptions, type SdkProviderOptions } from "./sdk-options.js";
export { createSdkProvider, type SdkProviderSpec, type StructuredCallOptions } from "./sdk-provider.js";
