import type { ChatResponse, StoredMessage } from "@solserver/core";
import { announcePgSkip, pgTestsDisabled } from "../../../server/test/support/pg.js";
import { type Backend, startTestServer, type TestServer } from "../../../server/test/support/test-server.js";
import type { SendChat, SolClient } from "../../src/index.js";

// The real SolServer (packages/server) in this process, over a fresh database: what the SDK's
// acceptance tests run against. With auth off every request belongs to the tenant `default`.

export type { Backend, TestServer };
export { announcePgSkip, pgTestsDisabled, startTestServer };

export const TENANT = "default";

/** The backends the acceptance suites run on: SQLite file always, PostgreSQL unless SOL_TEST_NO_PG=1. */
export function acceptanceBackends(suite: string): Backend[] {
  announcePgSkip(suite);
  return pgTestsDisabled() ? ["sqlite-file"] : ["sqlite-file", "postgres"];
}

/** The messages the server stored for a thread, in thread order. */
export function threadMessages(srv: TestServer, threadId: string): Promise<StoredMessage[]> {
  return srv.server.store.messages.listRecent(TENANT, threadId, 10_000);
}

/** How many transmissions the server holds for this requestId (0 or 1 when idempotency holds). */
export async function transmissionsFor(srv: TestServer, requestId: string): Promise<number> {
  return (await srv.server.store.transmissions.getByRequestId(TENANT, requestId)) === null ? 0 : 1;
}

/** Counts what a queue's deliveries got from the server: fresh turns and idempotent replays. */
export interface DeliveryCounter {
  readonly send: SendChat;
  readonly fresh: string[];
  readonly replayed: string[];
}

/** A queue `send` through `client.chatWithMeta` that records whether each answer was a replay. */
export function countingSend(client: SolClient): DeliveryCounter {
  const fresh: string[] = [];
  const replayed: string[] = [];
  const send: SendChat = async (packet, { signal }): Promise<ChatResponse> => {
    const reply = await client.chatWithMeta(packet, { signal });
    (reply.replayed ? replayed : fresh).push(packet.requestId);
    return reply.response;
  };
  return { send, fresh, replayed };
}
