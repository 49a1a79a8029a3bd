import {
  buildInternalThoughtPrompt,
  sanitizeLLMOutput,
  situationBands,
  situationSignature,
} from "@solserver/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { stockBand, timeBand, vitalBand } from "../../src/agency/situation.js";

const WORLD = { health: 20, food: 20, hostiles: 0, gameMode: "survival", inventory: {} };

describe("situation bands and signature", () => {
  it.each([
    [0, "critical"],
    [5.5, "critical"],
    [6, "low"],
    [11, "low"],
    [12, "mid"],
    [17, "mid"],
    [18, "full"],
    [20, "full"],
  ])("vital %d is %s", (value, band) => expect(vitalBand(value)).toBe(band));

  it("bands time of day (any day) and log stock", () => {
    expect(
      [undefined, 0, 11_499, 11_500, 12_999, 13_000, 22_999, 23_000, 24_000 + 100].map(timeBand),
    ).toEqual(["unknown", "day", "day", "dusk", "dusk", "night", "night", "dawn", "day"]);
    expect([0, 1, 7, 8, 15, 16].map(stockBand)).toEqual(["none", "few", "few", "some", "some", "plenty"]);
  });

  it("writes every band into one stable string", () => {
    const world = {
      health: 9,
      food: 19,
      hostiles: 3,
      gameMode: " Survival ",
      timeOfDay: 12_000,
      hasShelterNearby: false,
      inventory: { "minecraft:oak_log": 3, crafting_table: 1, stone_pickaxe: 1, cooked_beef: 2 },
    };
    expect(situationSignature(world)).toBe(
      "h=low|f=full|x=2+|t=dusk|m=survival|s=no|inv=logs:few,table:1,pick:1,food:1",
    );
    expect(situationSignature(WORLD)).toBe(
      "h=full|f=full|x=0|t=unknown|m=survival|s=unknown|inv=logs:none,table:0,pick:0,food:0",
    );
  });

  it("gives equal signatures to worlds in the same bands and different ones across a band edge", () => {
    const a = { ...WORLD, health: 18, inventory: { oak_log: 9 } };
    const b = { ...WORLD, health: 20, inventory: { birch_log: 15, dirt: 40 } };
    expect(situationSignature(a)).toBe(situationSignature(b));
    expect(situationSignature({ ...a, health: 17 })).not.toBe(situationSignature(a));
    expect(situationSignature({ ...a, hostiles: 1 })).not.toBe(situationSignature({ ...a, hostiles: 2 }));
    expect(situationSignature({ ...a, hostiles: 2 })).toBe(situationSignature({ ...a, hostiles: 7 }));
    // Empty stacks are no items.
    expect(situationBands({ ...WORLD, inventory: { crafting_table: 0, bread: 0 } })).toMatchObject({
      hasCraftingTable: false,
      hasFood: false,
    });
  });

  it("keeps the separators out of the game mode, so a field never spills into the next", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (gameMode) => {
        const signature = situationSignature({ ...WORLD, gameMode: gameMode === "" ? "x" : gameMode });
        expect(signature.split("|")).toHaveLength(7);
      }),
    );
  });
});

describe("buildInternalThoughtPrompt", () => {
  it("states the rules once and the situation in words; the same world gives the same prompt", () => {
    const world = {
      health: 7.4,
      food: 20,
      hostiles: 1,
      gameMode: "survival",
      timeOfDay: 14_000,
      hasShelterNearby: true,
      inventory: { "minecraft:oak_log": 5, bread: 2, dirt: 0 },
    };
    const prompt = buildInternalThoughtPrompt(world);
    expect(prompt).toEqual(buildInternalThoughtPrompt(world));
    expect(prompt.system).toContain("[GOAL: action target amount]");
    expect(prompt.system).toContain("INTENT: label");
    expect(prompt.system).not.toContain("cancel");
    expect(prompt.user).toBe(
      [
        "Health 7/20 (low), food 20/20 (full).",
        "One hostile mob is near. Time: night. Game mode: survival. A shelter is nearby.",
        "Inventory: 5 oak_log, 2 bread.",
        "What am I thinking?",
      ].join("\n"),
    );
  });

  it("names at most twelve stacks, the largest first", () => {
    const inventory = Object.fromEntries(Array.from({ length: 15 }, (_, i) => [`item_${i}`, i + 1]));
    const { user } = buildInternalThoughtPrompt({ ...WORLD, inventory });
    expect(user).toContain("Inventory: 15 item_14, 14 item_13");
    expect(user).toContain("and 3 more kinds.");
  });

  it("is itself a leak the sanitizer removes when a model echoes it", () => {
    const { system } = buildInternalThoughtPrompt(WORLD);
    const echoed = `${system.split("\n")[0]} I see a tree. I should gather wood.`;
    expect(sanitizeLLMOutput(echoed).text).toBe("I see a tree. I should gather wood.");
  });
});
