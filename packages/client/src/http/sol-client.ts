import type {
  CalendarEventList,
  ChatResponse,
  ExecuteActionInput,
  PacketInputBody,
  ReminderList,
  ThreadList,
  ThreadMementoV02,
  ThreadMessagePage,
} from "@solserver/core";
import {
  ExecuteActionInput as ExecuteActionInputSchema,
  PacketInput,
  ThreadMementoV02 as ThreadMementoSchema,
} from "@solserver/core";
import { SolClientError, toSolClientError } from "../errors.js";
import { randomId } from "../ids.js";
import type { SafeParser, Validator } from "../validate.js";
import { describeIssues, fromSchema } from "../validate.js";
import type { ChatStreamEvent } from "./chat-stream.js";
import { chatStreamEvents, finalEvent } from "./chat-stream.js";
import { type DriverBlockView, driverBlockEnvelope, driverBlockList } from "./driver-block-responses.js";
import type { Memory, MemoryQuery, MemorySaveInput, MessageQuery, ThreadQuery } from "./memory-responses.js";
import { memoryResponses, queryString } from "./memory-responses.js";
import type { ResolvedClientOptions, SolClientOptions } from "./options.js";
import { resolveClientOptions } from "./options.js";
import type {
  ActionDeferral,
  ActionExecution,
  ActionState,
  AgencyCounters,
  CheckpointEvaluateInput,
  CheckpointEvaluation,
  DriveTickResult,
  DriveWorld,
  Health,
  MementoWithEtag,
  TaskList,
  ThoughtInput,
  ThoughtResult,
  TracePageQuery,
  TraceRun,
} from "./responses.js";
import { responses } from "./responses.js";
import { readSse } from "./sse.js";
import type { CallOptions } from "./transport.js";
import { checkResponse, notJsonError, Transport } from "./transport.js";

/** A chat turn to send; `requestId` is generated when omitted (keep it to retry safely). */
export type ChatInput = Omit<PacketInputBody, "requestId"> & { readonly requestId?: string };

/** A chat response with whether the server replayed a stored one (header `idempotent-replayed`). */
export interface ChatReply {
  readonly response: ChatResponse;
  readonly replayed: boolean;
}

/**
 * The precondition of a memento write: `ifMatch` with the ETag last read (update), or
 * `ifNoneMatch: "*"` to create the first memento of a thread.
 */
export type MementoPrecondition = { readonly ifMatch: string } | { readonly ifNoneMatch: "*" };

/** Narrows a listing to one thread. */
export interface ThreadFilter {
  readonly threadId?: string;
}

const seg = encodeURIComponent;

function checkInput<T>(schema: SafeParser<T>, value: unknown, what: string): void {
  const result = fromSchema(schema)(value);
  if (!result.ok) {
    throw new SolClientError("invalid_input", `${what}: ${describeIssues(result.issues)}`, {
      details: { issues: result.issues },
      retryable: false,
    });
  }
}

/**
 * A 409 `conflict` on `POST /v1/chat` means another request with this requestId is still being
 * processed (not a different body, which is `idempotency_conflict`): retrying later gets its answer.
 */
function retryInProgressTurn(err: unknown): never {
  if (
    err instanceof SolClientError &&
    err.status === 409 &&
    err.serverCode === "conflict" &&
    !err.retryable
  ) {
    throw new SolClientError(err.code, err.message, {
      cause: err,
      details: err.details,
      status: 409,
      serverCode: "conflict",
      retryable: true,
      ...(err.retryAfterMs === undefined ? {} : { retryAfterMs: err.retryAfterMs }),
    });
  }
  throw err;
}

const listQuery = (filter: ThreadFilter): string =>
  filter.threadId === undefined ? "" : `?thread_id=${encodeURIComponent(filter.threadId)}`;

/** Typed client for every route of the SolServer HTTP API (api.md §3). */
export class SolClient {
  readonly options: ResolvedClientOptions;
  private readonly transport: Transport;

  constructor(options: SolClientOptions) {
    this.options = resolveClientOptions(options);
    this.transport = new Transport(this.options);
  }

  /** `POST /v1/chat`: one turn; the response is validated against ChatResponse. */
  async chat(input: ChatInput, call?: CallOptions): Promise<ChatResponse> {
    return (await this.chatWithMeta(input, call)).response;
  }

  /** `POST /v1/chat`, also telling whether the server replayed a stored response. */
  async chatWithMeta(input: ChatInput, call?: CallOptions): Promise<ChatReply> {
    const body = this.chatBody(input);
    const reply = await this.transport
      .json({ method: "POST", path: "/v1/chat", body, ...(call ? { call } : {}) }, responses.chat)
      .catch(retryInProgressTurn);
    return { response: reply.value, replayed: reply.headers.get("idempotent-replayed") === "true" };
  }

  /**
   * `POST /v1/chat` with `Accept: text/event-stream`: yields `delta` events as the server releases
   * reply text (read from the body as it arrives), `retract` when the shown text must be discarded,
   * and ends with one `final` (the validated ChatResponse) or one `error`. Failures never throw:
   * invalid input, HTTP errors, cut streams, timeouts and aborts all end the stream as an `error`
   * event carrying a SolClientError (`retryable` says whether the same requestId may be sent again).
   */
  async *chatStream(input: ChatInput, call?: CallOptions): AsyncGenerator<ChatStreamEvent, void, undefined> {
    let shown = "";
    try {
      for await (const event of this.openChatStream(input, call)) {
        shown = event.shown;
        yield event;
      }
    } catch (err) {
      yield { type: "error", error: toSolClientError(err), shown };
    }
  }

  /** The events of one streamed turn; throws on failures, which `chatStream` turns into events. */
  private async *openChatStream(input: ChatInput, call?: CallOptions): AsyncGenerator<ChatStreamEvent> {
    const what = "POST /v1/chat (stream)";
    const body = this.chatBody(input);
    const { response, scope } = await this.transport
      .open({
        method: "POST",
        path: "/v1/chat",
        body,
        accept: "text/event-stream",
        ...(call ? { call } : {}),
      })
      .catch(retryInProgressTurn);
    try {
      const type = response.headers.get("content-type") ?? "";
      if (!type.includes("text/event-stream") || response.body === null) {
        // A server (or a proxy) may answer with the whole JSON response instead of a stream.
        const text = await response.text();
        let value: unknown;
        try {
          value = JSON.parse(text);
        } catch {
          throw notJsonError(what, response);
        }
        yield finalEvent(checkResponse(value, responses.chat, what, response.status));
        return;
      }
      const events = chatStreamEvents(
        readSse(response.body, () => scope.rearm()),
        what,
        response.status,
      );
      // After `final` the turn is delivered: what the connection does next is not a failure.
      const ended = yield* events;
      if (ended === "cut") {
        throw new SolClientError("network_error", `${what}: the stream ended before the final event.`, {
          retryable: true,
        });
      }
    } catch (err) {
      throw scope.toError(err);
    } finally {
      scope.dispose();
    }
  }

  /** `GET /v1/threads/:threadId/memento`: the memento and its ETag, or null when there is none (404). */
  async getMemento(threadId: string, call?: CallOptions): Promise<MementoWithEtag | null> {
    try {
      const reply = await this.transport.json(
        { method: "GET", path: `/v1/threads/${seg(threadId)}/memento`, ...(call ? { call } : {}) },
        responses.memento,
      );
      return { memento: reply.value, etag: this.etagOf(reply.headers, "GET memento") };
    } catch (err) {
      if (err instanceof SolClientError && err.status === 404) return null;
      throw err;
    }
  }

  /**
   * `PUT /v1/threads/:threadId/memento`: `{ ifMatch: etag }` updates, `{ ifNoneMatch: "*" }` creates.
   * A stale tag (or creating one that exists) is a 412 `precondition_failed` error whose
   * `details.currentEtag` names the stored version.
   */
  async putMemento(
    threadId: string,
    memento: ThreadMementoV02,
    precondition: MementoPrecondition,
    call?: CallOptions,
  ): Promise<MementoWithEtag> {
    checkInput(ThreadMementoSchema, memento, "memento");
    const header: Record<string, string> =
      "ifMatch" in precondition
        ? { "if-match": precondition.ifMatch }
        : { "if-none-match": precondition.ifNoneMatch };
    const reply = await this.transport.json(
      {
        method: "PUT",
        path: `/v1/threads/${seg(threadId)}/memento`,
        body: memento,
        headers: header,
        ...(call ? { call } : {}),
      },
      responses.memento,
    );
    return { memento: reply.value, etag: this.etagOf(reply.headers, "PUT memento") };
  }

  /**
   * `GET /v1/traces/:traceRunId`: the hash-chained events of one run, one page at a time (the first
   * page without `page`); `nextAfterSeq` in the answer says where the next page starts.
   */
  async getTrace(traceRunId: string, call?: CallOptions, page: TracePageQuery = {}): Promise<TraceRun> {
    const query = new URLSearchParams();
    if (page.afterSeq !== undefined) query.set("afterSeq", String(page.afterSeq));
    if (page.limit !== undefined) query.set("limit", String(page.limit));
    const text = query.toString();
    const suffix = text === "" ? "" : `?${text}`;
    return this.get(`/v1/traces/${seg(traceRunId)}${suffix}`, responses.traceRun, call);
  }

  /** `GET /v1/actions/:actionId`. */
  async getAction(actionId: string, call?: CallOptions): Promise<ActionState> {
    return this.get(`/v1/actions/${seg(actionId)}`, responses.actionState, call);
  }

  /** `POST /v1/actions/execute`: runs an approved action at most once; the same request_id replays. */
  async executeAction(input: ExecuteActionInput, call?: CallOptions): Promise<ActionExecution> {
    checkInput(ExecuteActionInputSchema, input, "executeAction input");
    return this.post("/v1/actions/execute", input, responses.actionExecution, call);
  }

  /** `POST /v1/actions/:actionId/defer` ("Not now"). */
  async deferAction(actionId: string, call?: CallOptions): Promise<ActionDeferral> {
    return this.post(`/v1/actions/${seg(actionId)}/defer`, {}, responses.actionDeferral, call);
  }

  /** `GET /v1/reminders[?thread_id=]`: reminders created by approved actions, oldest first. */
  async listReminders(filter: ThreadFilter = {}, call?: CallOptions): Promise<ReminderList> {
    return this.get(`/v1/reminders${listQuery(filter)}`, responses.reminders, call);
  }

  /** `GET /v1/calendar/events[?thread_id=]`: calendar events created by approved actions. */
  async listCalendarEvents(filter: ThreadFilter = {}, call?: CallOptions): Promise<CalendarEventList> {
    return this.get(`/v1/calendar/events${listQuery(filter)}`, responses.calendarEvents, call);
  }

  /** `POST /v1/checkpoints/evaluate`. */
  async evaluateCheckpoint(
    input: CheckpointEvaluateInput,
    call?: CallOptions,
  ): Promise<CheckpointEvaluation> {
    return this.post("/v1/checkpoints/evaluate", input, responses.checkpointEvaluation, call);
  }

  /** `POST /v1/thoughts`. */
  async postThought(input: ThoughtInput, call?: CallOptions): Promise<ThoughtResult> {
    return this.post("/v1/thoughts", input, responses.thought, call);
  }

  /** `POST /v1/agency/drive-tick`. */
  async driveTick(input: { readonly world: DriveWorld }, call?: CallOptions): Promise<DriveTickResult> {
    return this.post("/v1/agency/drive-tick", input, responses.driveTick, call);
  }

  /**
   * `GET /v1/tasks?status=&limit=&after=`: one page of tasks, oldest first; `nextAfter` in the answer
   * is the `after` of the next page.
   */
  async listTasks(
    filter: { readonly status?: string; readonly limit?: number; readonly after?: string } = {},
    call?: CallOptions,
  ): Promise<TaskList> {
    const query = new URLSearchParams();
    if (filter.status !== undefined) query.set("status", filter.status);
    if (filter.limit !== undefined) query.set("limit", String(filter.limit));
    if (filter.after !== undefined) query.set("after", filter.after);
    const text = query.toString();
    return this.get(`/v1/tasks${text === "" ? "" : `?${text}`}`, responses.taskList, call);
  }

  /** `GET /v1/agency/counters`. */
  async getCounters(call?: CallOptions): Promise<AgencyCounters> {
    return this.get("/v1/agency/counters", responses.counters, call);
  }

  /**
   * `POST /v1/memories`: saves a memory of the tenant. The same `requestId` and body again returns
   * the same memory (`replayed`); for a save that must survive being offline use the queue's
   * `enqueueMemory`.
   */
  async saveMemory(
    input: MemorySaveInput,
    call?: CallOptions,
  ): Promise<{ memory: Memory; replayed: boolean }> {
    const body = { ...input, requestId: input.requestId ?? randomId("req") };
    const reply = await this.transport.json(
      { method: "POST", path: "/v1/memories", body, ...(call ? { call } : {}) },
      memoryResponses.saved,
    );
    return { memory: reply.value.memory, replayed: reply.headers.get("idempotent-replayed") === "true" };
  }

  /** `GET /v1/memories?q=&domain=&limit=&after=`: ranked best first with `q`, else newest first. */
  async listMemories(query: MemoryQuery = {}, call?: CallOptions): Promise<{ memories: Memory[] }> {
    const { q, domain, limit, after } = query;
    return this.get(
      `/v1/memories${queryString({ q, domain, limit, after })}`,
      memoryResponses.memories,
      call,
    );
  }

  /** `GET /v1/memories/:memoryId`. */
  async getMemory(memoryId: string, call?: CallOptions): Promise<Memory> {
    return this.get(`/v1/memories/${seg(memoryId)}`, memoryResponses.memory, call);
  }

  /** `DELETE /v1/memories/:memoryId`: gone from storage, search and retrieval. */
  async deleteMemory(memoryId: string, call?: CallOptions): Promise<void> {
    await this.transport.json(
      { method: "DELETE", path: `/v1/memories/${seg(memoryId)}`, ...(call ? { call } : {}) },
      memoryResponses.noContent,
    );
  }

  /** `GET /v1/driver-blocks`: the Driver Blocks the user approved, the latest version of each. */
  async listDriverBlocks(call?: CallOptions): Promise<DriverBlockView[]> {
    return (await this.get("/v1/driver-blocks", driverBlockList, call)).driverBlocks;
  }

  /** `PATCH /v1/driver-blocks/:id`: turns a stored Driver Block on or off. */
  async setDriverBlockEnabled(
    blockId: string,
    enabled: boolean,
    call?: CallOptions,
  ): Promise<DriverBlockView> {
    const path = `/v1/driver-blocks/${seg(blockId)}`;
    const reply = await this.transport.json(
      { method: "PATCH", path, body: { enabled }, ...(call ? { call } : {}) },
      driverBlockEnvelope,
    );
    return reply.value.driverBlock;
  }

  /** `DELETE /v1/driver-blocks/:id`: every version of it; later turns no longer apply it. */
  async deleteDriverBlock(blockId: string, call?: CallOptions): Promise<void> {
    await this.transport.json(
      { method: "DELETE", path: `/v1/driver-blocks/${seg(blockId)}`, ...(call ? { call } : {}) },
      memoryResponses.noContent,
    );
  }

  /** `GET /v1/threads?limit=&after=`: the tenant's threads, latest activity first. */
  async listThreads(query: ThreadQuery = {}, call?: CallOptions): Promise<ThreadList> {
    const { limit, after } = query;
    return this.get(`/v1/threads${queryString({ limit, after })}`, memoryResponses.threads, call);
  }

  /** `GET /v1/threads/:threadId/messages?afterSeq=&limit=`: a thread's stored messages in order. */
  async listMessages(
    threadId: string,
    query: MessageQuery = {},
    call?: CallOptions,
  ): Promise<ThreadMessagePage> {
    const { afterSeq, limit } = query;
    return this.get(
      `/v1/threads/${seg(threadId)}/messages${queryString({ afterSeq, limit })}`,
      memoryResponses.messages,
      call,
    );
  }

  /** `DELETE /v1/threads/:threadId`: its messages, memento and checkpoints are gone. */
  async deleteThread(threadId: string, call?: CallOptions): Promise<void> {
    await this.transport.json(
      { method: "DELETE", path: `/v1/threads/${seg(threadId)}`, ...(call ? { call } : {}) },
      memoryResponses.noContent,
    );
  }

  /** `GET /healthz`. */
  async healthz(call?: CallOptions): Promise<Health> {
    return this.get("/healthz", responses.health, call);
  }

  private chatBody(input: ChatInput): PacketInputBody {
    const body: PacketInputBody = { ...input, requestId: input.requestId ?? randomId("req") };
    checkInput(PacketInput, body, "chat input");
    return body;
  }

  private etagOf(headers: Headers, what: string): string {
    const etag = headers.get("etag");
    if (etag === null || etag.length === 0) {
      throw new SolClientError("invalid_response", `${what}: the response has no ETag header.`, {
        retryable: false,
      });
    }
    return etag;
  }

  private async get<T>(path: string, validator: Validator<T>, call?: CallOptions): Promise<T> {
    return (await this.transport.json({ method: "GET", path, ...(call ? { call } : {}) }, validator)).value;
  }

  private async post<T>(
    path: string,
    body: unknown,
    validator: Validator<T>,
    call?: CallOptions,
  ): Promise<T> {
    return (await this.transport.json({ method: "POST", path, body, ...(call ? { call } : {}) }, validator))
      .value;
  }
}
