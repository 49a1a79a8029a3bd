export * from "./app.js";
export * from "./app-deps.js";
export * from "./error-mapping.js";
export * from "./tenancy.js";
