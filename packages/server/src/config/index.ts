export {
  loadConfig,
  readConfigFile,
  type SolConfig,
  type SolConfigInput,
  SolConfigSchema,
} from "./config.js";
