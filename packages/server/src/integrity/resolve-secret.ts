import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { SolError } from "@solserver/core";
import { requireStoreLocation } from "../store/drivers/store-url.js";
import { createKeyring, type Keyring, MIN_SECRET_BYTES } from "./keyring.js";

/** Where the server's integrity keys came from (logged at start; never the secret itself). */
export type SecretSource = "config" | "file" | "process";

/** The settings {@link resolveKeyring} reads. */
export interface SecretSettings {
  readonly SOL_ACTION_SECRET?: string | undefined;
  readonly SOL_ACTION_SECRETS_PREVIOUS?: readonly string[] | undefined;
  readonly SOL_DB_URL: string;
  readonly production: boolean;
}

/** The keyring, where its current secret came from, and a warning to log, if any. */
export interface ResolvedKeyring {
  readonly keyring: Keyring;
  readonly source: SecretSource;
  readonly warning?: string;
}

/**
 * The keys that bind approvals and anchor traces. SOL_ACTION_SECRET when set. Without it, production
 * refuses to start; elsewhere a SQLite file store keeps a generated secret in `<db file>.secret`
 * (created 0600 on first start, so approvals survive restarts), and any other store (memory,
 * PostgreSQL, or a store handed in by the caller: `ownStore` false) gets a random secret for this
 * process only, with a warning: approvals proposed before a restart then fail closed.
 */
export function resolveKeyring(settings: SecretSettings, options: { ownStore: boolean }): ResolvedKeyring {
  const previous = settings.SOL_ACTION_SECRETS_PREVIOUS ?? [];
  if (settings.SOL_ACTION_SECRET !== undefined) {
    return { keyring: createKeyring(settings.SOL_ACTION_SECRET, previous), source: "config" };
  }
  if (settings.production) {
    throw new SolError(
      "invalid_input",
      `SOL_ACTION_SECRET is not set. In production the server needs a secret of at least ${MIN_SECRET_BYTES} bytes to bind approvals and anchor traces (e.g. the output of \`openssl rand -hex 32\`); it will not start without one.`,
      { details: [{ path: "SOL_ACTION_SECRET", message: "required when NODE_ENV=production" }] },
    );
  }
  const location = options.ownStore ? requireStoreLocation(settings.SOL_DB_URL) : null;
  if (location?.kind === "sqlite" && !location.memory) {
    const secret = fileSecret(`${location.path}.secret`);
    return { keyring: createKeyring(secret, previous), source: "file" };
  }
  return {
    keyring: createKeyring(randomBytes(32).toString("hex"), previous),
    source: "process",
    warning:
      "SOL_ACTION_SECRET is not set: approvals and trace anchors use a random key for this process only. Actions proposed before a restart will refuse to run, and `sol trace` cannot check anchors after one. Set SOL_ACTION_SECRET to keep them.",
  };
}

/** Reads the generated secret beside the database, creating it (0600, exclusive) on first start. */
function fileSecret(path: string): string {
  try {
    return readSecretFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  mkdirSync(dirname(path), { recursive: true });
  try {
    writeFileSync(path, `${randomBytes(32).toString("hex")}\n`, { mode: 0o600, flag: "wx" });
  } catch (error) {
    // Another process starting on the same file wrote it first: use theirs.
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  return readSecretFile(path);
}

function readSecretFile(path: string): string {
  const secret = readFileSync(path, "utf8").trim();
  if (Buffer.byteLength(secret, "utf8") < MIN_SECRET_BYTES) {
    throw new SolError(
      "invalid_input",
      `The secret file ${path} holds fewer than ${MIN_SECRET_BYTES} bytes; delete it to generate a new one (pending approvals will then refuse to run) or set SOL_ACTION_SECRET.`,
    );
  }
  return secret;
}
