export interface EvalMessage {
  readonly message: string;
  readonly mode: string;
  readonly kind: "task" | "support" | "rigor" | "greeting" | "ack";
  readonly lastMode?: string;
  readonly batch: number;
}
export interface EvalMiss {
  readonly message: string;
  readonly expected: string;
  readonly modeLabel: string;
  readonly step: 0 | 1 | 2;
  readonly confidence: number;
}
export interface EvalReport {
  readonly messages: number;
  readonly threshold: number;
  readonly decidedShare: number;
  readonly decidedPrecision: number;
  readonly accuracy: number;
  readonly phaticToSystem: number;
  readonly byKind: readonly { kind: string; count: number; decidedShare: number; accuracy: number }[];
  readonly misses: readonly EvalMiss[];
}
interface RoutableRouter {
  readonly confidenceThreshold: number;
  route(input: { message: string; thread?: { lastModeLabel?: string } }): {
    modeLabel: string;
    step: 0 | 1 | 2;
    confidence: number;
  };
}
export function readDefaultPackEval(path?: string): EvalMessage[];
export function evaluateRouter(router: RoutableRouter, rows: readonly EvalMessage[]): EvalReport;
