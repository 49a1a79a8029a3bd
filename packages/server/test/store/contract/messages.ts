import { type CommitTurnInput, isSolError, type ThreadStats } from "@solserver/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { claimInput, turnInput } from "../support/samples.js";
import type { PortHarness, PortStore } from "./harness.js";

const T = "tenant-a";

/** Claims and commits `count` turns on a thread, numbered from `from`. */
async function commitTurns(store: PortStore, threadId: string, count: number, from = 0): Promise<void> {
  for (let turn = from; turn < from + count; turn += 1) {
    const requestId = `${threadId}-r${turn}`;
    await store.transmissions.claim(claimInput(T, requestId, { threadId }));
    const result = await store.commitTurn(turnInput(T, requestId, turn, { threadId }));
    expect(result.ok).toBe(true);
  }
}

/** MessageStore: insertion order, bounded recent window, per-thread counts. */
export function messageContract(harness: PortHarness): void {
  describe("messages", () => {
    it("lists the most recent messages of a thread, oldest first, bounded by limit", async () => {
      const store = await harness.open();
      await commitTurns(store, "th", 5);
      await commitTurns(store, "other", 1);
      const all = await store.messages.listRecent(T, "th", 100);
      expect(all.map((m) => `${m.role}:${m.content}`)).toEqual(
        [0, 1, 2, 3, 4].flatMap((i) => [`user:question ${i}`, `assistant:answer ${i}`]),
      );
      expect(all[0]).toEqual({
        tenantId: T,
        threadId: "th",
        messageId: "u-th-r0",
        role: "user",
        content: "question 0",
        transmissionId: "tx-th-r0",
        modeLabel: null,
        createdAt: "2025-03-01T10:00:00.000Z",
      });
      expect(all[1]?.modeLabel).toBe("companion");
      const recent = await store.messages.listRecent(T, "th", 3);
      expect(recent.map((m) => m.messageId)).toEqual(["a-th-r3", "u-th-r4", "a-th-r4"]);
      expect(await store.messages.listRecent(T, "th", 0)).toEqual([]);
      expect(await store.messages.listRecent(T, "nothing", 5)).toEqual([]);
      expect(await store.messages.countInThread(T, "th")).toBe(10);
      expect(await store.messages.countInThread(T, "other")).toBe(2);
      expect(await store.messages.countInThread(T, "nothing")).toBe(0);
      expect(await store.messages.threadStats(T, "th")).toEqual({
        messageCount: 10,
        lastModeLabel: "companion",
        churnTokens: 0,
        lastDrift: null,
        domainTags: [],
      });
      expect(await store.messages.threadStats(T, "nothing")).toEqual({
        messageCount: 0,
        lastModeLabel: null,
        churnTokens: 0,
        lastDrift: null,
        domainTags: [],
      });
      expect(await store.messages.hasMessage(T, "u-th-r0")).toBe(true);
      expect(await store.messages.hasMessage(T, "a-other-r0")).toBe(true);
      expect(await store.messages.hasMessage(T, "u-th-r99")).toBe(false);
      expect(await store.messages.hasMessage("tenant-b", "u-th-r0")).toBe(false);
    });

    it("thread stats keep the churn since the last checkpoint and the last turn's drift", async () => {
      const store = await harness.open();
      const calm = { flare: false, regenerated: false, passed: true, violations: [] };
      const flared = { flare: true, regenerated: true, passed: true, violations: ["mode_drift"] };
      const turns: CommitTurnInput["threadStats"][] = [
        { tokens: 10, checkpointed: false, drift: flared },
        { tokens: 5, checkpointed: false, drift: calm },
        { tokens: 7, checkpointed: true, drift: flared },
        { tokens: 4, checkpointed: false, drift: calm },
        undefined,
      ];
      const seen: ThreadStats[] = [];
      for (const [turn, threadStats] of turns.entries()) {
        const requestId = `churn-r${turn}`;
        await store.transmissions.claim(claimInput(T, requestId, { threadId: "churn" }));
        const input = turnInput(T, requestId, turn, { threadId: "churn" });
        const result = await store.commitTurn(threadStats ? { ...input, threadStats } : input);
        expect(result.ok).toBe(true);
        seen.push(await store.messages.threadStats(T, "churn"));
      }
      expect(seen.map((s) => [s.messageCount, s.churnTokens, s.lastDrift])).toEqual([
        [2, 10, flared],
        [4, 15, calm],
        // A checkpoint turn starts the count again at 0: its own tokens came with its capsule.
        [6, 0, flared],
        [8, 4, calm],
        // A commit without stats leaves churn and drift as they were.
        [10, 4, calm],
      ]);
      expect((await store.messages.threadStats("tenant-b", "churn")).lastDrift).toBeNull();
    });

    // With a finished attempt, PostgreSQL writes the stats, messages, response and finish as one
    // statement (turn-exchange-postgres.ts); without one, one statement each.
    it.each([
      ["without an attempt to finish", false],
      ["finishing each turn's attempt", true],
    ])(
      "turns committed in parallel on one thread keep their user and assistant messages adjacent (%s)",
      async (_shape, finish) => {
        const store = await harness.open();
        const turns = Array.from({ length: 24 }, (_, i) => i);
        const drift = { flare: false, regenerated: false, passed: true, violations: [] };
        for (const i of turns) {
          await store.transmissions.claim(claimInput(T, `par-r${i}`, { threadId: "par" }));
          if (finish) {
            await store.transmissions.startAttempt(T, {
              attemptId: `par-att${i}`,
              transmissionId: `tx-par-r${i}`,
              status: "sending",
              startedAt: "2026-01-01T00:00:00.000Z",
            });
          }
        }
        const results = await Promise.all(
          turns.map((i) =>
            store.commitTurn(
              turnInput(T, `par-r${i}`, i, {
                threadId: "par",
                threadStats: { tokens: 10 + i, checkpointed: false, drift },
                ...(finish
                  ? {
                      finishAttempt: {
                        attemptId: `par-att${i}`,
                        patch: { status: "succeeded", endedAt: "2026-01-01T00:00:01.000Z", latencyMs: i },
                      },
                    }
                  : {}),
              }),
            ),
          ),
        );
        expect(results.every((result) => result.ok)).toBe(true);
        const window = await store.messages.listRecent(T, "par", 100);
        expect(window).toHaveLength(48);
        const pairs = Array.from({ length: 24 }, (_, k) => [window[2 * k], window[2 * k + 1]]);
        for (const [user, assistant] of pairs) {
          expect([user?.role, assistant?.role]).toEqual(["user", "assistant"]);
          expect(assistant?.transmissionId).toBe(user?.transmissionId);
          expect(user?.messageId).toBe(`u-${user?.transmissionId?.slice(3)}`);
          expect(assistant?.modeLabel).toBe("companion");
        }
        expect(await store.messages.threadStats(T, "par")).toMatchObject({
          messageCount: 48,
          lastModeLabel: "companion",
          churnTokens: turns.reduce((sum, i) => sum + 10 + i, 0),
          lastDrift: drift,
        });
        for (const i of [0, 23]) {
          expect((await store.responses.get(T, `par-r${i}`))?.bodyHash).toBe(`hash-par-r${i}`);
          const tx = await store.transmissions.get(T, `tx-par-r${i}`);
          expect(tx?.status).toBe("succeeded");
          if (finish) {
            expect(tx?.deliveryAttempts).toEqual([
              expect.objectContaining({ attemptId: `par-att${i}`, status: "succeeded", latencyMs: i }),
            ]);
          }
        }
      },
    );

    it("thread stats count churn past 2^31 tokens", async () => {
      const store = await harness.open();
      const calm = { flare: false, regenerated: false, passed: true, violations: [] };
      for (const turn of [0, 1]) {
        const requestId = `big-r${turn}`;
        await store.transmissions.claim(claimInput(T, requestId, { threadId: "big" }));
        const input = turnInput(T, requestId, turn, { threadId: "big" });
        const threadStats = { tokens: 3_000_000_000, checkpointed: false, drift: calm };
        expect(await store.commitTurn({ ...input, threadStats })).toEqual({ ok: true, mementoVersion: null });
      }
      expect(await store.messages.threadStats(T, "big")).toMatchObject({ messageCount: 4, churnTokens: 6e9 });
    });

    it("thread stats keep the domain flags of the last turn that had any", async () => {
      const store = await harness.open();
      const calm = { flare: false, regenerated: false, passed: true, violations: [] };
      const turns: CommitTurnInput["threadStats"][] = [
        { tokens: 1, checkpointed: false, drift: calm, domainFlags: ["finance", "finance"] },
        { tokens: 1, checkpointed: false, drift: calm, domainFlags: [] },
        { tokens: 1, checkpointed: false, drift: calm },
        undefined,
        { tokens: 1, checkpointed: true, drift: calm, domainFlags: ["legal", "finance"] },
      ];
      const seen: (readonly string[])[] = [];
      for (const [turn, threadStats] of turns.entries()) {
        const requestId = `tags-r${turn}`;
        await store.transmissions.claim(claimInput(T, requestId, { threadId: "tags" }));
        const input = turnInput(T, requestId, turn, { threadId: "tags" });
        expect((await store.commitTurn(threadStats ? { ...input, threadStats } : input)).ok).toBe(true);
        seen.push((await store.messages.threadStats(T, "tags")).domainTags);
      }
      expect(seen).toEqual([["finance"], ["finance"], ["finance"], ["finance"], ["legal", "finance"]]);
      expect((await store.messages.threadStats("tenant-b", "tags")).domainTags).toEqual([]);
    });

    it("rejects a negative or fractional limit", async () => {
      const store = await harness.open();
      for (const limit of [-1, 1.5, Number.NaN]) {
        const error = await store.messages.listRecent(T, "th", limit).catch((caught: unknown) => caught);
        expect(isSolError(error) && error.code).toBe("invalid_input");
      }
    });

    it("the recent window is always the tail of the thread (property)", async () => {
      const store = await harness.open();
      let committed = 0;
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 0, max: 3 }),
          fc.integer({ min: 0, max: 12 }),
          async (more, limit) => {
            await commitTurns(store, "prop", more, committed);
            committed += more;
            const expected = Array.from({ length: committed }, (_, i) => [
              `u-prop-r${i}`,
              `a-prop-r${i}`,
            ]).flat();
            const listed = await store.messages.listRecent(T, "prop", limit);
            expect(listed.map((m) => m.messageId)).toEqual(
              expected.slice(Math.max(0, expected.length - limit)),
            );
          },
        ),
        { numRuns: 20 },
      );
    });

    it("round-trips any well-formed Unicode text and rejects NUL the same on every backend", async () => {
      const store = await harness.open();
      const content = "emoji 🧭 – accents é, CJK 漢字, quotes \" ' \\ and newline\nend";
      await store.transmissions.claim(claimInput(T, "u1"));
      await store.commitTurn(turnInput(T, "u1", 0, { userMessage: { messageId: "u-u1", content } }));
      expect((await store.messages.listRecent(T, "thread-1", 2))[0]?.content).toBe(content);

      await store.transmissions.claim(claimInput(T, "u2"));
      const error = await store
        .commitTurn(turnInput(T, "u2", 1, { userMessage: { messageId: "u-u2", content: "a\u0000b" } }))
        .catch((caught: unknown) => caught);
      expect(isSolError(error) && error.code).toBe("invalid_input");
      expect(await store.messages.countInThread(T, "thread-1")).toBe(2);
    });
  });
}
