import type { ChatResponse, PacketInput, WindowMessage } from "@solserver/core";
import type { StructuredOutput } from "../structured-output/index.js";
import type { TurnStreamSink } from "./stream-sink.js";

export interface TurnContext {
  readonly tenantId: string;
  /** SHA-256 of the canonical request body, for idempotency. */
  readonly bodyHash: string;
  /**
   * The earlier conversation as the caller holds it (OpenAI facade: the request's earlier messages).
   * When present it is the prompt window instead of the stored thread history.
   */
  readonly window?: readonly WindowMessage[];
  /** Caller instructions (the facade's system messages), added to the prompt's injected context. */
  readonly instructions?: readonly string[];
  /** OpenAI-style extras (tools, tool_choice...) for the main and regeneration calls. */
  readonly passthrough?: Readonly<Record<string, unknown>>;
  /** OpenAI's `stop` (facade): the reply text ends before the first of these sequences. */
  readonly stopSequences?: readonly string[];
  /**
   * Structured messages after the user's message (the facade's tool call of this turn and its
   * results). With it, `promptUserMessage` is the user's own text and the packet's message (stored,
   * routed, checked) is that text with the tail rendered after it.
   */
  readonly turnTail?: readonly WindowMessage[];
  readonly promptUserMessage?: string;
  /**
   * The client's structured output (facade `response_format` / `text.format`): the provider is asked
   * for that document instead of the envelope, and the reply is checked against it (one regeneration).
   */
  readonly structuredOutput?: StructuredOutput;
  /**
   * Streams the reply: guarded `delta`s and `retract`s as the model writes (api.md §3). An idempotent
   * replay sends nothing here; the caller streams the stored reply.
   */
  readonly stream?: TurnStreamSink;
}

export interface TurnOutcome {
  readonly response: ChatResponse;
  /** True when the stored response of an earlier identical request was returned without any model call. */
  readonly replayed: boolean;
  /** When the turn's transmission was first claimed (ISO 8601); the same on every replay. */
  readonly createdAt: string;
}

/** What the HTTP layer needs from the orchestrator. */
export interface TurnService {
  runTurn(ctx: TurnContext, packet: PacketInput): Promise<TurnOutcome>;
  /** Resolves once every turn in flight has finished (graceful shutdown). */
  drain(): Promise<void>;
}
