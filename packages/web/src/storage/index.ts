export * from "./local-json.js";
export * from "./local-settings.js";
