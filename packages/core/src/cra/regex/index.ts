export type { SafeRegexSearch } from "./pike-vm.js";
export type { SafeRegex, SafeRegexLimits, SafeRegexOptions } from "./safe-regex.js";
export { compileSafeRegex, SAFE_REGEX_LIMITS } from "./safe-regex.js";
