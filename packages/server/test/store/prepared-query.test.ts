import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type OpenStoreOptions, openStore, type SqlSolStore } from "../../src/store/index.js";
import { preparedQuery } from "../../src/store/sql/prepared-query.js";
import { announcePgSkip, createPgTestSchema, type PgTestSchema, pgTestsDisabled } from "../support/pg.js";

const selectByThread = preparedQuery((db, tenantId: string, threadId: string, limit: number) =>
  db
    .selectFrom("messages")
    .select(["message_id", "content"])
    .where("tenant_id", "=", tenantId)
    .where("thread_id", "=", threadId)
    // A constant the builder writes itself stays in place between the arguments.
    .where("role", "in", ["user", "assistant"])
    .orderBy("id", "asc")
    .limit(limit),
);

const insertMessage = preparedQuery((db, threadId: string, id: string, at: string) =>
  db.insertInto("messages").values({
    tenant_id: "t1",
    thread_id: threadId,
    message_id: id,
    role: "user",
    content: "hello",
    transmission_id: null,
    mode_label: null,
    // One argument in two places.
    created_at: at,
  }),
);

function suite(name: string, open: () => Promise<{ store: SqlSolStore; close(): Promise<void> }>) {
  describe(`preparedQuery on ${name}`, () => {
    let store: SqlSolStore;
    let close: () => Promise<void>;
    beforeAll(async () => {
      ({ store, close } = await open());
    });
    afterAll(async () => close());

    it("runs the compiled text again with each call's own arguments", async () => {
      const ctx = { db: store.db, dialect: store.kind };
      for (const [thread, id] of [
        ["a", "m1"],
        ["a", "m2"],
        ["b", "m3"],
      ] as const) {
        const result = await insertMessage(ctx, thread, id, "2026-01-01T00:00:00.000Z");
        expect(result.numAffectedRows).toBe(1n);
      }
      expect((await selectByThread(ctx, "t1", "a", 10)).rows.map((r) => r.message_id)).toEqual(["m1", "m2"]);
      expect((await selectByThread(ctx, "t1", "b", 10)).rows.map((r) => r.message_id)).toEqual(["m3"]);
      expect((await selectByThread(ctx, "t1", "a", 1)).rows.map((r) => r.message_id)).toEqual(["m1"]);
      expect((await selectByThread(ctx, "other", "a", 10)).rows).toEqual([]);
    });

    it("works inside a transaction", async () => {
      await store.db.transaction().execute(async (trx) => {
        await insertMessage({ db: trx, dialect: store.kind }, "c", "m4", "2026-01-01T00:00:00.000Z");
        const rows = (await selectByThread({ db: trx, dialect: store.kind }, "t1", "c", 5)).rows;
        expect(rows).toEqual([{ message_id: "m4", content: "hello" }]);
      });
    });

    it("refuses a builder that transforms an argument instead of binding it", async () => {
      const bad = preparedQuery((db, threadId: string) =>
        db.selectFrom("messages").selectAll().where("thread_id", "=", threadId.toUpperCase()),
      );
      await expect(bad({ db: store.db, dialect: store.kind }, "a")).rejects.toThrow(
        /did not become a parameter/,
      );
    });
  });
}

const memoryOptions: OpenStoreOptions = {};
suite("SQLite memory", async () => {
  const store = await openStore("sqlite::memory:", memoryOptions);
  return { store, close: () => store.close() };
});

announcePgSkip("preparedQuery");
describe.skipIf(pgTestsDisabled())("PostgreSQL", () => {
  suite("PostgreSQL", async () => {
    const schema: PgTestSchema = await createPgTestSchema();
    const store = await openStore(schema.url);
    return {
      store,
      close: async () => {
        await store.close();
        await schema.drop();
      },
    };
  });
});
