export { compileSchemaCheck, type SchemaCheck } from "./schema-check.js";
export {
  type ClientFormat,
  type DocumentCheck,
  readJsonDocument,
  type StructuredOutput,
  structuredOutputOf,
} from "./structured-output.js";
