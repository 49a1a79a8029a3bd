import {
  AGENCY_COUNTER_NAMES,
  type AgencyCounterName,
  type AgencyCounters,
  type AgencyStateStore,
  assertAgencyCounterSteps,
  SolError,
} from "@solserver/core";
import type { Selectable } from "kysely";
import { assertStorableKeys, toNumber } from "../sql/columns.js";
import type { StoreContext } from "../sql/context.js";
import type { AgencyStateTable } from "../sql/schema.js";

type CounterColumn =
  | "llm_calls"
  | "goal_tags"
  | "drive_ticks"
  | "signature_suppressions"
  | "content_suppressions"
  | "intent_extractions"
  | "low_novelty_recorded"
  | "low_novelty_broadcast";

/** Each contract counter's column in `agency_state` (migration 18). */
const COLUMN_OF: Readonly<Record<AgencyCounterName, CounterColumn>> = {
  llmCalls: "llm_calls",
  goalTags: "goal_tags",
  driveTicks: "drive_ticks",
  signatureSuppressions: "signature_suppressions",
  contentSuppressions: "content_suppressions",
  intentExtractions: "intent_extractions",
  lowNoveltyRecorded: "low_novelty_recorded",
  lowNoveltyBroadcast: "low_novelty_broadcast",
};

function countersOf(row: Selectable<AgencyStateTable>): AgencyCounters {
  const counters = { startedAtMs: toNumber(row.started_at_ms) } as Record<keyof AgencyCounters, number>;
  for (const name of AGENCY_COUNTER_NAMES) counters[name] = toNumber(row[COLUMN_OF[name]]);
  return counters as AgencyCounters;
}

function assertMs(value: number, field: string): void {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new SolError("invalid_input", `${field} must be a non-negative integer of milliseconds`);
  }
}

/**
 * AgencyStateStore over `agency_state` and `agency_signatures`. Counters move by one
 * `UPDATE ... SET x = x + n`, the drive-tick timer by `UPDATE ... WHERE last_drive_tick_ms = expected`
 * and a signature by one upsert whose update only applies once the window has passed: each write is
 * a single statement, so concurrent instances never lose or double one.
 */
export function createAgencyStateStore(ctx: StoreContext): AgencyStateStore {
  const { db } = ctx;

  /** Creates the tenant's row (zero counters, session started now) unless it exists. */
  async function ensure(tenantId: string, nowMs: number): Promise<void> {
    assertStorableKeys({ tenantId });
    assertMs(nowMs, "nowMs");
    await db
      .insertInto("agency_state")
      .values({ tenant_id: tenantId, started_at_ms: nowMs })
      .onConflict((oc) => oc.column("tenant_id").doNothing())
      .execute();
  }

  async function read(tenantId: string): Promise<Selectable<AgencyStateTable>> {
    const row = await db
      .selectFrom("agency_state")
      .selectAll()
      .where("tenant_id", "=", tenantId)
      .executeTakeFirst();
    if (row === undefined) throw new SolError("internal", `agency state of ${tenantId} vanished`);
    return row;
  }

  return {
    async counters(tenantId, nowMs) {
      await ensure(tenantId, nowMs);
      return countersOf(await read(tenantId));
    },

    async addCounters(tenantId, steps, nowMs) {
      assertAgencyCounterSteps(steps);
      const names = AGENCY_COUNTER_NAMES.filter((name) => (steps[name] ?? 0) > 0);
      await ensure(tenantId, nowMs);
      if (names.length === 0) return;
      await db
        .updateTable("agency_state")
        .set((eb) =>
          Object.fromEntries(
            names.map((name) => [COLUMN_OF[name], eb(COLUMN_OF[name], "+", steps[name] as number)]),
          ),
        )
        .where("tenant_id", "=", tenantId)
        .execute();
    },

    async resetCounters(tenantId, nowMs) {
      await ensure(tenantId, nowMs);
      const zero = Object.fromEntries(AGENCY_COUNTER_NAMES.map((name) => [COLUMN_OF[name], 0]));
      await db
        .updateTable("agency_state")
        .set({ ...zero, started_at_ms: nowMs })
        .where("tenant_id", "=", tenantId)
        .execute();
      return countersOf(await read(tenantId));
    },

    async listCounters() {
      const rows = await db.selectFrom("agency_state").selectAll().orderBy("tenant_id").execute();
      return rows.map((row) => ({ tenantId: row.tenant_id, counters: countersOf(row) }));
    },

    async lastDriveTickMs(tenantId, nowMs) {
      await ensure(tenantId, nowMs);
      const row = await read(tenantId);
      return row.last_drive_tick_ms === null ? null : toNumber(row.last_drive_tick_ms);
    },

    async swapDriveTick(tenantId, expectedMs, nextMs) {
      if (expectedMs !== null) assertMs(expectedMs, "expectedMs");
      if (nextMs !== null) assertMs(nextMs, "nextMs");
      await ensure(tenantId, nextMs ?? expectedMs ?? 0);
      const result = await db
        .updateTable("agency_state")
        .set({ last_drive_tick_ms: nextMs })
        .where("tenant_id", "=", tenantId)
        .where((eb) =>
          expectedMs === null
            ? eb("last_drive_tick_ms", "is", null)
            : eb("last_drive_tick_ms", "=", expectedMs),
        )
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    async bumpLowNoveltySeen(tenantId, nowMs) {
      await ensure(tenantId, nowMs);
      const row = await db
        .updateTable("agency_state")
        .set((eb) => ({ low_novelty_seen: eb("low_novelty_seen", "+", 1) }))
        .where("tenant_id", "=", tenantId)
        .returning("low_novelty_seen")
        .executeTakeFirstOrThrow();
      return toNumber(row.low_novelty_seen);
    },

    async claimSignature(tenantId, signature, nowMs, windowMs) {
      assertStorableKeys({ tenantId, signature });
      assertMs(nowMs, "nowMs");
      assertMs(windowMs, "windowMs");
      // Inserted (never seen) or updated (seen before the window): a row comes back. Seen within
      // the window: the conflict's WHERE fails, nothing is written and nothing comes back.
      const row = await db
        .insertInto("agency_signatures")
        .values({ tenant_id: tenantId, signature, seen_at_ms: nowMs })
        .onConflict((oc) =>
          oc
            .columns(["tenant_id", "signature"])
            .doUpdateSet({ seen_at_ms: nowMs })
            .where("agency_signatures.seen_at_ms", "<=", nowMs - windowMs),
        )
        .returning("signature")
        .executeTakeFirst();
      return row !== undefined;
    },

    async releaseSignature(tenantId, signature, claimedAtMs) {
      assertStorableKeys({ tenantId, signature });
      assertMs(claimedAtMs, "claimedAtMs");
      await db
        .deleteFrom("agency_signatures")
        .where("tenant_id", "=", tenantId)
        .where("signature", "=", signature)
        .where("seen_at_ms", "=", claimedAtMs)
        .execute();
    },
  };
}
