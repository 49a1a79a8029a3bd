import { loadConfig, readConfigFile } from "../config/index.js";
import { redact } from "../store/drivers/store-url.js";
import { MIGRATIONS, migrateStore } from "../store/index.js";

/** `sol migrate`: applies pending store migrations, says which, and exits. */
export async function runMigrate(flags: { db?: string; config?: string }): Promise<void> {
  const config = loadConfig({
    env: process.env,
    ...(flags.config ? { file: readConfigFile(flags.config) } : {}),
    overrides: { SOL_DB_URL: flags.db },
  });
  const applied = await migrateStore(config.SOL_DB_URL);
  const where = redact(config.SOL_DB_URL);
  const latest = MIGRATIONS.length;
  process.stdout.write(
    applied.length > 0
      ? `applied migrations ${applied.join(", ")} to ${where}; schema version ${latest}\n`
      : `${where} is up to date at schema version ${latest}\n`,
  );
}
