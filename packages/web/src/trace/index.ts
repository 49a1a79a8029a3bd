export * from "./trace-rows.js";
