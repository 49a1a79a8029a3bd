export type SignalKind =
  | "decision_made"
  | "scope_changed"
  | "pivot"
  | "answer_provided"
  | "ack_only"
  | "open_loop_created"
  | "open_loop_resolved"
  | "risk_or_conflict";
export interface LabelledTurn {
  readonly id: string;
  readonly user: string;
  readonly assistant?: string;
  readonly previousAssistant?: string;
  readonly openLoops?: readonly string[];
  readonly expected: readonly SignalKind[];
}
export interface KindScore {
  readonly kind: SignalKind;
  readonly positives: number;
  readonly tp: number;
  readonly fp: number;
  readonly fn: number;
  readonly precision: number;
  readonly recall: number;
}
export interface SignalReport {
  readonly turns: number;
  readonly byKind: readonly KindScore[];
  readonly misses: readonly { id: string; kind: SignalKind; expected: boolean; user: string }[];
}
type Detect = (input: {
  userMessage: string;
  assistantText?: string | undefined;
  previousAssistantText?: string | undefined;
  openLoops?: readonly string[] | undefined;
}) => readonly { kind: string }[];
export const SIGNAL_KINDS: readonly SignalKind[];
export const MUST_KINDS: readonly SignalKind[];
export const SIGNAL_SETS: { readonly tuning: string; readonly heldout: string };
export function readLabelledTurns(path: string): LabelledTurn[];
export function evaluateSignals(detect: Detect, turns: readonly LabelledTurn[]): SignalReport;
export function signalTable(results: Record<string, SignalReport>): string;
