export type { SafeRegexSearch } from "./pike-vm.js";
export * from "./safe-regex.js";
