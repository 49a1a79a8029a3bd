import type { ChatResponse, ResponseStore, TenantId } from "@solserver/core";
import { decodeJson, encodeJson, isStorableKey } from "../sql/columns.js";
import type { StoreContext } from "../sql/context.js";
import { insertRowsRaw } from "../sql/raw-insert.js";
import type { ResponsesTable } from "../sql/schema.js";

export const RESPONSE_COLUMNS = [
  "tenant_id",
  "request_id",
  "transmission_id",
  "body_hash",
  "response",
  "created_at",
] as const satisfies readonly (keyof ResponsesTable)[];

/** The response row a committed turn writes for idempotent replay. */
export interface NewResponse {
  readonly tenantId: TenantId;
  readonly requestId: string;
  readonly transmissionId: string;
  readonly bodyHash: string;
  readonly response: ChatResponse;
  readonly createdAt: string;
}

/** Inserts the stored response; a second one for the same requestId is a unique violation. */
export async function insertResponse(ctx: StoreContext, input: NewResponse): Promise<void> {
  // Precompiled: this runs inside every turn's commit.
  await insertRowsRaw(ctx, "responses", RESPONSE_COLUMNS, [responseRow(input)]);
}

/** The response's values in {@link RESPONSE_COLUMNS} order. */
export function responseRow(input: NewResponse): unknown[] {
  return [
    input.tenantId,
    input.requestId,
    input.transmissionId,
    input.bodyHash,
    encodeJson(input.response, "response"),
    input.createdAt,
  ];
}

/** ResponseStore over the responses table. */
export function createResponseStore(ctx: StoreContext): ResponseStore {
  return {
    async get(tenantId, requestId) {
      if (!isStorableKey(tenantId, requestId)) return null;
      const row = await ctx.db
        .selectFrom("responses")
        .select(["response", "body_hash"])
        .where("tenant_id", "=", tenantId)
        .where("request_id", "=", requestId)
        .executeTakeFirst();
      if (row === undefined) return null;
      return { response: decodeJson(ctx.dialect, row.response) as ChatResponse, bodyHash: row.body_hash };
    },
  };
}
