import type { SituationBands } from "@solserver/core";

/**
 * The offline provider's inner thought for a `thought` call: chosen from the banded situation, first
 * need first, in the format the prompt asks for (a goal tag, then a final INTENT line). Not a model:
 * the same bands give the same thought. Without a situation it thinks of exploring.
 */
export function offlineThought(bands: SituationBands | undefined): string {
  if (bands === undefined) return "I wonder what is around me. [GOAL: explore nearby 1]\nINTENT: explore";
  if (bands.hostiles !== "0") {
    return "Hostile mobs are close; I should get to safety. [GOAL: build basic_shelter 1]\nINTENT: shelter";
  }
  if (bands.food === "critical" || bands.food === "low") {
    return bands.hasFood
      ? "I am hungry and I carry food; I should eat. [GOAL: eat food 1]\nINTENT: food"
      : "I am getting hungry. I should gather food. [GOAL: gather food 3]\nINTENT: food";
  }
  if ((bands.time === "dusk" || bands.time === "night") && bands.shelter !== "yes") {
    return "It is getting dark and I have no shelter. I should build one. [GOAL: build basic_shelter 1]\nINTENT: shelter";
  }
  if (bands.logs === "none")
    return "I have no wood at all. I should gather some oak logs. [GOAL: gather oak_log 8]\nINTENT: gather";
  if (!bands.hasCraftingTable)
    return "I have some wood now. A crafting table comes first. [GOAL: craft crafting_table 1]\nINTENT: craft";
  if (!bands.hasPickaxe)
    return "With a table I can make tools. I need a pickaxe. [GOAL: craft wooden_pickaxe 1]\nINTENT: craft";
  if (bands.logs !== "plenty")
    return "My wood is running low. I should gather more logs. [GOAL: gather oak_log 8]\nINTENT: gather";
  return "Everything is calm here. I want to see what lies nearby. [GOAL: explore nearby 1]\nINTENT: explore";
}
