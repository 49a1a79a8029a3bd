import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { CheckpointEvaluateResponse } from "@solserver/core";
import { expect } from "vitest";
import type { HttpReply, TestServer } from "./test-server.js";

/** The example atlas shipped with the server (packages/server/atlas). */
export const EXAMPLE_ATLAS_PATH = fileURLToPath(new URL("../../atlas/example-atlas.json", import.meta.url));

export interface AtlasJson {
  checkpoint_config: Record<string, unknown>;
  context_blocks: { context_id: string; content: string }[];
  policies?: unknown[];
}

/** A fresh parsed copy of the example atlas, to modify. */
export const exampleAtlas = (): AtlasJson =>
  JSON.parse(readFileSync(EXAMPLE_ATLAS_PATH, "utf8")) as AtlasJson;

/** The content of one of the example atlas's context blocks. */
export function exampleContent(id: string): string {
  const block = exampleAtlas().context_blocks.find((b) => b.context_id === id);
  if (!block) throw new Error(`no block ${id} in the example atlas`);
  return block.content;
}

/** Writes an atlas as JSON into `dir` and returns its path. */
export function writeAtlasFile(dir: string, name: string, atlas: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(atlas));
  return path;
}

/** `POST /v1/checkpoints/evaluate` for one event of a session. */
export const evaluateCheckpoint = (target: TestServer, sessionId: string, event: Record<string, unknown>) =>
  target.request("POST", "/v1/checkpoints/evaluate", { sessionId, event });

/** An ordinary answer matches the api.md response contract exactly. */
export function expectEvaluation(res: HttpReply): void {
  expect(res.status).toBe(200);
  expect(CheckpointEvaluateResponse.safeParse(res.json).success).toBe(true);
}
