import { describe, expect, it } from "vitest";
import { driftCheckContext } from "../../src/orchestrator/drift-check.js";

const drift = (flare: boolean, regenerated: boolean, passed: boolean, violations: string[]) => ({
  flare,
  regenerated,
  passed,
  violations,
});

describe("driftCheckContext", () => {
  it("reports the previous reply's findings as the linter recorded them", () => {
    expect(driftCheckContext(null)).toContain("No earlier reply of this thread was checked.");
    expect(driftCheckContext(drift(false, false, true, []))).toContain("- Nothing:");
    const warned = driftCheckContext(drift(false, false, true, ["unsourced_authority"]));
    expect(warned).toContain("Violations: unsourced_authority.");
    expect(warned).toContain("Only warnings");
    const failed = driftCheckContext(drift(true, true, false, ["mode_drift", "empty_output"]));
    expect(failed).toContain("Violations: mode_drift, empty_output.");
    expect(failed).toContain("the corrected reply still failed");
    expect(driftCheckContext(drift(true, false, false, ["mode_drift"]))).toContain(
      "could not be regenerated",
    );
  });
});
