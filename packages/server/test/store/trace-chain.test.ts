import type { TraceEventDraft } from "@solserver/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson, hashTraceEvent, verifyTraceChain } from "../../src/store/index.js";
import { canonicalEventJson } from "../../src/store/repos/trace-hash.js";
import { chainDrafts } from "../../src/store/repos/trace-store.js";

const text = fc.string({ unit: "grapheme", maxLength: 12 });
const metadata = fc.dictionary(
  text,
  fc.oneof(
    text,
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(fc.oneof(text, fc.double()), { maxLength: 3 }),
  ),
  { maxKeys: 5 },
);
const draft: fc.Arbitrary<TraceEventDraft> = fc.record(
  {
    actor: fc.constantFrom("solmobile", "solserver", "model", "renderer", "user"),
    phase: text,
    status: fc.constantFrom("started", "completed", "paused", "blocked", "failed", "warning"),
    summary: text,
    metadata,
    ts: fc.constant("2026-01-01T00:00:00.000Z"),
  },
  { requiredKeys: ["actor", "phase", "status", "metadata"] },
);

describe("trace chaining", () => {
  it("property: the composed canonical event text equals canonicalJson of the event", () => {
    fc.assert(
      fc.property(
        fc.array(draft, { minLength: 1, maxLength: 4 }),
        fc.option(text, { nil: null }),
        (drafts, tx) => {
          for (const event of chainDrafts("run", tx, drafts, null, () => "2026-01-01T00:00:01.000Z")) {
            const { hash: _hash, ...unhashed } = event;
            expect(canonicalEventJson(unhashed, canonicalJson(unhashed.metadata))).toBe(
              canonicalJson(unhashed),
            );
          }
        },
      ),
    );
  });

  it("property: chained events verify and every hash recomputes with hashTraceEvent", () => {
    fc.assert(
      fc.property(fc.array(draft, { maxLength: 6 }), (drafts) => {
        const events = chainDrafts("run", "tx", drafts, null, () => "2026-01-01T00:00:01.000Z");
        expect(verifyTraceChain(events)).toBe(true);
        for (const event of events) expect(event.hash).toBe(hashTraceEvent(event));
      }),
    );
  });
});
