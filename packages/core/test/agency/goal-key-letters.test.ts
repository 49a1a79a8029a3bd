import { canonicalGoalKey, extractGoalTag } from "@solserver/core";
import { describe, expect, it } from "vitest";

// Goal keys fold accented letters to their base letter instead of dropping them ("Ölfass" ->
// olfass). Latin letters that Unicode does not decompose (ø, ß, æ, ł ...) must fold as well: they
// are letters, not word separators, and a tag target must give the same word as canonicalGoalKey.
describe("goal keys keep Latin letters that have no Unicode decomposition", () => {
  it.each([
    ["Ølfass", "olfass"],
    ["Straße", "strasse"],
    ["Smørbrød", "smorbrod"],
    ["Æble", "aeble"],
    ["Œuvre", "oeuvre"],
    ["Łódź", "lodz"],
    ["Đakovo", "dakovo"],
    ["Þorn", "thorn"],
  ])("canonicalGoalKey folds %s to %s", (word, folded) => {
    expect(canonicalGoalKey("collect", word)).toBe(`collect:${folded}`);
  });

  it("a goal tag target folds them the same way", () => {
    expect(extractGoalTag("[GOAL: collect Straße 2]").goal).toMatchObject({ target: "strasse", amount: 2 });
    expect(extractGoalTag("[GOAL: find Smørbrød]").goal).toMatchObject({ target: "smorbrod" });
  });
});
