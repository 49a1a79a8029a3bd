import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isSolError } from "@solserver/core";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/index.js";
import { createKeyring, resolveKeyring } from "../../src/integrity/index.js";

const SECRET = "a-configured-secret-0123456789abcdef";
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("the action secret", () => {
  it("production without SOL_ACTION_SECRET refuses to start, naming the setting", () => {
    const settings = { SOL_DB_URL: "sqlite::memory:", production: true };
    const error = (() => {
      try {
        return resolveKeyring(settings, { ownStore: true });
      } catch (caught) {
        return caught;
      }
    })();
    expect(isSolError(error) && error.code).toBe("invalid_input");
    expect((error as Error).message).toContain("SOL_ACTION_SECRET is not set");
  });

  it("a SQLite file store keeps a generated secret beside the database, 0600, reused on the next start", () => {
    const dir = mkdtempSync(join(tmpdir(), "sol-secret-"));
    dirs.push(dir);
    const settings = { SOL_DB_URL: `sqlite:${join(dir, "sub", "sol.db")}`, production: false };
    const first = resolveKeyring(settings, { ownStore: true });
    const path = join(dir, "sub", "sol.db.secret");
    expect(first.source).toBe("file");
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readFileSync(path, "utf8").trim()).toMatch(/^[0-9a-f]{64}$/);
    const second = resolveKeyring(settings, { ownStore: true });
    expect(second.keyring.currentKeyId).toBe(first.keyring.currentKeyId);
  });

  it("other stores get a process-only key and a warning; a configured secret wins", () => {
    const memory = resolveKeyring({ SOL_DB_URL: "sqlite::memory:", production: false }, { ownStore: true });
    expect(memory.source).toBe("process");
    expect(memory.warning).toContain("SOL_ACTION_SECRET");
    const configured = resolveKeyring(
      { SOL_DB_URL: "sqlite::memory:", SOL_ACTION_SECRET: SECRET, production: true },
      { ownStore: true },
    );
    expect(configured).toEqual({ keyring: expect.anything(), source: "config" });
    expect(configured.keyring.currentKeyId).toBe(createKeyring(SECRET).currentKeyId);
  });

  it("config refuses short secrets without echoing them", () => {
    const short = "too-short-secret";
    for (const env of [{ SOL_ACTION_SECRET: short }, { SOL_ACTION_SECRETS_PREVIOUS: `${SECRET},${short}` }]) {
      const error = (() => {
        try {
          return loadConfig({ env });
        } catch (caught) {
          return caught;
        }
      })();
      expect(isSolError(error) && error.code).toBe("invalid_input");
      expect((error as Error).message).not.toContain(short);
    }
    expect(
      loadConfig({ env: { SOL_ACTION_SECRETS_PREVIOUS: `${SECRET}, ${SECRET}x` } })
        .SOL_ACTION_SECRETS_PREVIOUS,
    ).toEqual([SECRET, `${SECRET}x`]);
  });

  it("the keyring verifies with previous keys by id and refuses unknown ids and altered text", () => {
    const old = createKeyring(SECRET);
    const signed = old.sign("text");
    const rotated = createKeyring(`${SECRET}-new`, [SECRET]);
    expect(rotated.currentKeyId).not.toBe(old.currentKeyId);
    expect(rotated.verify(signed.keyId, "text", signed.mac)).toBe("ok");
    expect(rotated.verify(signed.keyId, "text!", signed.mac)).toBe("mismatch");
    expect(rotated.verify(signed.keyId, "text", "00")).toBe("mismatch");
    expect(createKeyring(`${SECRET}-new`).verify(signed.keyId, "text", signed.mac)).toBe("unknown_key");
  });
});
