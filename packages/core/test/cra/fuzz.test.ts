import {
  CheckpointEvaluation,
  type CheckpointEvent,
  createCheckpointEngine,
  createManualClock,
  matchKeywords,
  parseAtlas,
  restoreCheckpointSession,
} from "@solserver/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileSafeRegex } from "../../src/cra/regex/safe-regex.js";

const MODES = ["any", "all", "phrase", "regex", "fuzzy"] as const;
const TIERS = ["low", "medium", "high", "critical"] as const;
const nasty = fc.string({ unit: fc.constantFrom(..."ab |()*+?[]{}\\.^$-dw1é"), minLength: 1, maxLength: 14 });
const text = fc.oneof(
  fc.string({ maxLength: 200 }),
  fc.string({ unit: "grapheme", maxLength: 80 }),
  fc.string({ unit: fc.constantFrom(..."ab |.-1é"), maxLength: 300 }),
  fc.integer({ min: 1, max: 20_000 }).map((n) => `${"a".repeat(n)}!`),
);
const actionType = fc.oneof(
  fc.constantFrom("read_file", "write_file", "delete_user", "deploy", "execute_code", "pay_invoice"),
  fc.string({ minLength: 1, maxLength: 20 }),
);
const actionPattern = fc.oneof(
  fc.constantFrom("delete_*", "*", "write_file", "*_code", "pay_*"),
  fc.string({ unit: fc.constantFrom("a", "b", "_", "*"), minLength: 1, maxLength: 6 }),
);
const ids = ["c0", "c1", "c2", "c3"];

const atlasArb = fc.record({
  checkpoint_config: fc.record(
    {
      session_start: fc.record({ inject_contexts: fc.subarray(ids) }),
      keyword_match: fc.record({
        keywords: fc.dictionary(nasty, fc.subarray(ids, { minLength: 1 }), { maxKeys: 5 }),
        match_mode: fc.constantFrom(...MODES),
        case_sensitive: fc.boolean(),
        once_per_session: fc.boolean(),
        threshold: fc.double({ min: 0, max: 1, noNaN: true }),
      }),
      action_pre: fc.record({
        actions: fc.dictionary(
          actionPattern,
          fc.record({
            inject_contexts: fc.subarray(ids),
            require_policy_check: fc.boolean(),
            require_confirmation: fc.boolean(),
          }),
          { maxKeys: 4 },
        ),
      }),
      risk_threshold: fc.record({
        enabled: fc.boolean(),
        min_tier: fc.constantFrom(...TIERS),
        require_sync: fc.boolean(),
        require_confirmation: fc.boolean(),
      }),
      time_interval: fc.record({ enabled: fc.boolean(), seconds: fc.integer({ min: 1, max: 100 }) }),
      count_interval: fc.record({ enabled: fc.boolean(), actions: fc.integer({ min: 1, max: 5 }) }),
      error_occurred: fc.record({ inject_contexts: fc.subarray(ids) }),
      budget: fc.record({
        max_checkpoints_per_input: fc.integer({ min: 1, max: 10 }),
        max_context_injection_size: fc.integer({ min: 0, max: 500 }),
        max_checkpoint_time_ms: fc.integer({ min: 1, max: 1000 }),
      }),
    },
    { requiredKeys: [] },
  ),
  context_blocks: fc.tuple(
    ...ids.map((id) =>
      fc.record({
        context_id: fc.constant(id),
        name: fc.constant(`Block ${id}`),
        content: fc.string({ maxLength: 200 }),
        inject_mode: fc.constantFrom("always", "on_match", "on_request", "never"),
        checkpoint_config: fc.record({
          keywords: fc.array(nasty, { maxLength: 4 }),
          actions: fc.array(actionPattern, { maxLength: 2 }),
          match_mode: fc.constantFrom(...MODES),
          priority: fc.integer({ min: -10, max: 1000 }),
          once_per_session: fc.boolean(),
        }),
      }),
    ),
  ),
  policies: fc.array(
    fc.record({
      policy_id: fc.constantFrom("p1", "p2"),
      actions: fc.array(actionPattern, { minLength: 1, maxLength: 2 }),
      decision: fc.constantFrom("allowed", "denied", "requires_approval"),
    }),
    { maxLength: 2 },
  ),
});

const eventArb: fc.Arbitrary<CheckpointEvent> = fc.oneof(
  fc.constant<CheckpointEvent>({ type: "session_start" }),
  fc.constant<CheckpointEvent>({ type: "session_end" }),
  text.map((input): CheckpointEvent => ({ type: "input", input })),
  text.map((input): CheckpointEvent => ({ type: "explicit_request", input })),
  text.map((input): CheckpointEvent => ({ type: "error", input })),
  fc
    .tuple(
      fc.constantFrom("action_pre", "action_post") as fc.Arbitrary<"action_pre" | "action_post">,
      actionType,
      fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
    )
    .map(([type, t, params]): CheckpointEvent => ({ type, action: { type: t, params } })),
);

describe("fuzz", () => {
  it("random atlases and event streams never crash and always answer the HTTP shape", async () => {
    await fc.assert(
      fc.asyncProperty(
        atlasArb,
        fc.array(fc.tuple(eventArb, fc.integer({ min: 0, max: 120_000 }), fc.boolean()), { maxLength: 12 }),
        async (atlasJson, steps) => {
          const parsed = parseAtlas(atlasJson);
          if (!parsed.ok) {
            expect(parsed.issues.length).toBeGreaterThan(0);
            return;
          }
          const clock = createManualClock(0);
          const engine = createCheckpointEngine({ atlas: parsed.value, clock });
          const session = engine.createSession("fuzz");
          for (const [event, advance, approve] of steps) {
            clock.advance(advance);
            const live = !session.ended;
            const result = await engine.evaluate(session, event);
            // Every action_pre of a live session is recorded exactly once, whatever ran or blocked.
            const attempted = result.traceEvents.filter((e) => e.eventType === "action_attempted");
            const recorded =
              event.type === "action_pre" && live && engine.atlas.checkpoint_config.action_pre.enabled;
            expect(attempted).toHaveLength(recorded ? 1 : 0);
            const shape = CheckpointEvaluation.safeParse(result);
            expect(shape.success, JSON.stringify(shape.error?.issues)).toBe(true);
            expect(result.injectContext.join("").length).toBeLessThanOrEqual(
              engine.budget.maxContextInjectionSize,
            );
            if (!result.continue) expect(result.blockReason).toBeTruthy();
            if (approve && result.requireConfirmation) {
              expect(engine.grantConfirmation(session, result.requireConfirmation.action_id).ok).toBe(true);
            }
            expect(restoreCheckpointSession(JSON.parse(JSON.stringify(session))).ok).toBe(true);
          }
        },
      ),
      // About a third of the random atlases are valid (the rest exercise parseAtlas's refusals).
      { numRuns: 300 },
    );
  });

  it("matchKeywords never throws on arbitrary patterns and inputs", () => {
    fc.assert(
      fc.property(
        fc.array(nasty, { maxLength: 6 }),
        text,
        fc.constantFrom(...MODES),
        fc.boolean(),
        (keywords, input, mode, caseSensitive) => {
          const r = matchKeywords(input, keywords, mode, { caseSensitive });
          for (const m of r.matches) {
            expect(keywords).toContain(m.keyword);
            expect(m.position).toBeGreaterThanOrEqual(0);
            expect(m.position).toBeLessThanOrEqual(input.length);
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it("every accepted regex finishes within input length x program size steps", () => {
    fc.assert(
      fc.property(nasty, text, (source, input) => {
        const compiled = compileSafeRegex(source);
        if (!compiled.ok) return;
        const r = compiled.value.search(input);
        expect(r.steps).toBeLessThanOrEqual(
          (Math.min(input.length, 20_000) + 2) * 2 * compiled.value.programSize,
        );
      }),
      { numRuns: 500 },
    );
  });
});
