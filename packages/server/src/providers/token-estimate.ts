/** Rough token count (characters / 4, rounded up): used where a provider reports no usage. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}
