/** The reply text up to the first stop sequence, and whether one was found. */
export interface StopCut {
  readonly text: string;
  readonly stopped: boolean;
}

/**
 * OpenAI's `stop`: the text ends where the earliest of the sequences begins and does not contain it.
 * Applied to the reply text the user reads, not to the provider's output: the provider writes a JSON
 * envelope, where a sequence could cut the JSON itself or never match (a newline is written `\n`).
 */
export function cutAtStopSequence(text: string, stops: readonly string[] | undefined): StopCut {
  let end = -1;
  for (const stop of stops ?? []) {
    if (stop === "") continue;
    const at = text.indexOf(stop);
    if (at !== -1 && (end === -1 || at < end)) end = at;
  }
  return end === -1 ? { text, stopped: false } : { text: text.slice(0, end), stopped: true };
}
