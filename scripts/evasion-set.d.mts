export interface EvasiveCase {
  readonly phrase: string;
  readonly technique: string;
  readonly carrier: number;
  readonly text: string;
}
export const EVASION_PHRASES: readonly string[];
export const EVASIONS: Readonly<Record<string, (phrase: string) => string>>;
export function evasiveCases(): EvasiveCase[];
export const COMPLIANT_REPLIES: readonly string[];
export function legacyNormalize(text: string): string;
