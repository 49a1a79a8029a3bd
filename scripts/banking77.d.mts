export interface LabelledText {
  readonly text: string;
  readonly category: string;
}
export interface ExampleMode {
  label: string;
  examples: string[];
}
export function findBanking77(): string;
export function parseCsv(text: string): string[][];
export function readBanking77(split: "train" | "test", dir?: string): LabelledText[];
export function modesFromRows(rows: readonly LabelledText[], perCategory: number): ExampleMode[];
