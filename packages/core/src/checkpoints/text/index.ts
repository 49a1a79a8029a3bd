export * from "./clip.js";
export * from "./fold.js";
export * from "./hash.js";
export * from "./words.js";
