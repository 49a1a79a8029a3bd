/** One scripted "model output" relayed through POST /v1/thoughts during a soak. */
export interface ScriptedThought {
  readonly text: string;
  /** Dev-only injection (ignored in production) so the converter sees model goals. */
  readonly convertEligible?: boolean;
}

/**
 * Model-style outputs fed during a soak. There is no language model in the loop: these stand in
 * for one, covering a final-line INTENT, an inline (non-compliant) INTENT, an unknown label, no
 * INTENT at all, goal tags, and an exact repeat that content dedup must turn into a low-novelty,
 * never-converted thought. Goals here never collide with the drive tick's goals.
 */
export const SCRIPTED_MODEL_OUTPUTS: readonly ScriptedThought[] = Object.freeze([
  {
    text: "The ridge to the north catches the light; a village might be up there. [GOAL: find village]\nINTENT: explore",
    convertEligible: true,
  },
  { text: "Stone tools would last longer than wooden ones.\nINTENT: mine" },
  { text: "It is calm here, I could sort my things later.\nINTENT: none" },
  {
    text: "The ridge to the north catches the light; a village might be up there. [GOAL: find village]\nINTENT: explore",
    convertEligible: true,
  },
  { text: "Maybe I will INTENT: gather some flowers by the river." },
  { text: "A quiet moment with nothing much to add." },
  {
    text: "Those grey rocks could become a furnace one day. [GOAL: mine stone 3]\nINTENT: mine",
    convertEligible: true,
  },
  { text: "I wonder where the clouds go.\nINTENT: teleport" },
]);

/** The i-th scripted output (cycling). */
export function scriptedModelOutput(index: number): ScriptedThought {
  const list = SCRIPTED_MODEL_OUTPUTS;
  return list[((index % list.length) + list.length) % list.length] as ScriptedThought;
}
