import type { ChatResponse } from "../contracts/chat-response.js";
import type { TenantId } from "./tenant.js";

export interface StoredResponse {
  readonly response: ChatResponse;
  readonly bodyHash: string;
}

export interface ResponseStore {
  get(tenantId: TenantId, requestId: string): Promise<StoredResponse | null>;
}
