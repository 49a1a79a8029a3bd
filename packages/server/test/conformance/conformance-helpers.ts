import { expect } from "vitest";
import type { HttpReply } from "../support/test-server.js";

/** Canonical JSON: object keys sorted, recursively (what api.md's hash chain is computed over). */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/** Asserts api.md §2: `{error:{code,message,details?}}` with a snake_case code. */
export function expectError(reply: HttpReply, status: number, code?: string): void {
  expect(reply.status).toBe(status);
  expect(typeof reply.json?.error?.code).toBe("string");
  expect(reply.json.error.code).toMatch(/^[a-z][a-z0-9_]*$/);
  expect(typeof reply.json.error.message).toBe("string");
  expect(reply.json.error.message.length).toBeGreaterThan(0);
  if (code !== undefined) expect(reply.json.error.code).toBe(code);
}

/** The `path`s named in a 400's details, however the details are laid out. */
export function detailText(reply: HttpReply): string {
  return JSON.stringify(reply.json?.error?.details ?? null);
}

export const WORLD = { health: 20, food: 20, hostiles: 0, gameMode: "survival", inventory: {} };
