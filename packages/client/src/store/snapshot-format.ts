import type { Issue, Result } from "@solserver/core";
import { ChatResponse, fail, ok, PacketInput, Transmission } from "@solserver/core";
import { memory as memoryShape } from "../http/memory-responses.js";
import type { QueueSnapshot } from "../records.js";
import { CAPTURE_STATUSES, MEMORY_SAVE_STATUSES, QUEUE_FORMAT_VERSION } from "../records.js";
import type { Validator } from "../validate.js";
import { arrayOf, fieldIssues, fromSchema, isObject, shape } from "../validate.js";

// Format history:
//   0 - the unversioned prototype layout: `{ transmissions, messages }`, no captures, transmissions
//       without retry bookkeeping (`seq`, `failuresInRound`, `nextAttemptAt`, `lastError`).
//   1 - `{ formatVersion: 1, transmissions, messages, captures }`.
//   2 - adds `memorySaves` (records.ts): memory saves carried offline-first like chat packets.

export const UNSUPPORTED_FORMAT = "unsupported_format_version";

const recordedError = shape({
  code: "string",
  message: "string",
  status: "number?",
  retryAfterMs: "number?",
});
const transmissionCore = fromSchema(Transmission);
const packet = fromSchema(PacketInput);
const chatResponse = fromSchema(ChatResponse);
const TRANSMISSION_KEYS = Object.keys(Transmission.shape);

const transmission = shape<QueueSnapshot["transmissions"][number]>(
  {
    threadId: "string",
    localMessageId: "string",
    packet: "object",
    seq: "number",
    createdAt: "string",
    updatedAt: "string",
    failuresInRound: "number",
    nextAttemptAt: "unknown",
    lastError: "unknown",
    response: "object?",
  },
  (v) => {
    const core = Object.fromEntries(
      TRANSMISSION_KEYS.filter((k) => v[k] !== undefined).map((k) => [k, v[k]]),
    );
    const coreResult = transmissionCore(core);
    const issues: Issue[] = coreResult.ok ? [] : [...coreResult.issues];
    issues.push(...fieldIssues(v, "packet", packet), ...fieldIssues(v, "response", chatResponse));
    const body = v.packet as Record<string, unknown>;
    if (body.requestId !== v.requestId || body.threadId !== v.threadId) {
      issues.push({ code: "inconsistent", message: "packet must carry the record's requestId and threadId" });
    }
    if (v.nextAttemptAt !== null && typeof v.nextAttemptAt !== "number") {
      issues.push({
        code: "invalid_type",
        message: "nextAttemptAt must be a number or null",
        path: ["nextAttemptAt"],
      });
    }
    if (v.lastError !== null) issues.push(...fieldIssues(v, "lastError", recordedError));
    return issues;
  },
);

const message = shape<QueueSnapshot["messages"][number]>(
  {
    messageId: "string",
    threadId: "string",
    role: "string",
    content: "string",
    createdAt: "string",
    transmissionId: "unknown",
    captureIds: "array",
  },
  (v) => [
    ...(v.role === "user" || v.role === "assistant"
      ? []
      : [{ code: "invalid_value", message: "role must be user or assistant", path: ["role"] }]),
    ...(v.transmissionId === null || typeof v.transmissionId === "string"
      ? []
      : [
          {
            code: "invalid_type",
            message: "transmissionId must be a string or null",
            path: ["transmissionId"],
          },
        ]),
  ],
);

const capture = shape<QueueSnapshot["captures"][number]>(
  {
    captureId: "string",
    messageId: "string",
    threadId: "string",
    kind: "string",
    source: "unknown",
    status: "string",
    dataDescription: "string?",
    attempts: "number",
    createdAt: "string",
    updatedAt: "string",
    error: "object?",
  },
  (v) => [
    ...((CAPTURE_STATUSES as readonly unknown[]).includes(v.status)
      ? []
      : [{ code: "invalid_value", message: "unknown capture status", path: ["status"] }]),
    ...fieldIssues(v, "error", recordedError),
  ],
);

const memorySave = shape<QueueSnapshot["memorySaves"][number]>(
  {
    saveId: "string",
    requestId: "string",
    body: "object",
    status: "string",
    seq: "number",
    createdAt: "string",
    updatedAt: "string",
    failuresInRound: "number",
    nextAttemptAt: "unknown",
    lastError: "unknown",
    memory: "object?",
  },
  (v) => {
    const body = v.body as Record<string, unknown>;
    return [
      ...((MEMORY_SAVE_STATUSES as readonly unknown[]).includes(v.status)
        ? []
        : [{ code: "invalid_value", message: "unknown memory save status", path: ["status"] }]),
      ...(body.requestId === v.requestId && typeof body.text === "string"
        ? []
        : [{ code: "inconsistent", message: "body must carry the record's requestId and a text" }]),
      ...(v.nextAttemptAt === null || typeof v.nextAttemptAt === "number"
        ? []
        : [
            {
              code: "invalid_type",
              message: "nextAttemptAt must be a number or null",
              path: ["nextAttemptAt"],
            },
          ]),
      ...(v.lastError === null ? [] : fieldIssues(v, "lastError", recordedError)),
      ...fieldIssues(v, "memory", memoryShape),
    ];
  },
);

function duplicates(values: readonly string[], what: string): Issue[] {
  const seen = new Set<string>();
  const issues: Issue[] = [];
  for (const value of values) {
    if (seen.has(value)) issues.push({ code: "duplicate", message: `duplicate ${what} ${value}` });
    seen.add(value);
  }
  return issues;
}

const snapshotV2: Validator<QueueSnapshot> = shape<QueueSnapshot>(
  {
    formatVersion: "number",
    transmissions: "array",
    messages: "array",
    captures: "array",
    memorySaves: "array",
  },
  (v) => {
    const issues = [
      ...fieldIssues(v, "transmissions", arrayOf(transmission)),
      ...fieldIssues(v, "messages", arrayOf(message)),
      ...fieldIssues(v, "captures", arrayOf(capture)),
      ...fieldIssues(v, "memorySaves", arrayOf(memorySave)),
    ];
    if (issues.length > 0) return issues;
    const snap = v as unknown as QueueSnapshot;
    return [
      ...duplicates(
        snap.transmissions.map((t) => t.transmissionId),
        "transmissionId",
      ),
      ...duplicates(
        snap.transmissions.map((t) => t.requestId),
        "requestId",
      ),
      ...duplicates(
        snap.messages.map((m) => m.messageId),
        "messageId",
      ),
      ...duplicates(
        snap.captures.map((c) => c.captureId),
        "captureId",
      ),
      ...duplicates(
        snap.memorySaves.map((m) => m.saveId),
        "saveId",
      ),
      ...duplicates(
        snap.memorySaves.map((m) => m.requestId),
        "memory save requestId",
      ),
    ];
  },
);

/** Format 0 -> 1: adds the retry bookkeeping (ordered as stored), message captureIds and captures. */
function fromV0(raw: Record<string, unknown>): Record<string, unknown> {
  const transmissions = Array.isArray(raw.transmissions) ? raw.transmissions : [];
  const messages = Array.isArray(raw.messages) ? raw.messages : [];
  return {
    formatVersion: 1,
    transmissions: transmissions.map((t, seq) =>
      isObject(t)
        ? { seq, failuresInRound: 0, nextAttemptAt: null, lastError: null, updatedAt: t.createdAt, ...t }
        : t,
    ),
    messages: messages.map((m) => (isObject(m) ? { captureIds: [], ...m } : m)),
    captures: [],
  };
}

/** Format 1 -> 2: no memory saves yet. */
function fromV1(raw: Record<string, unknown>): Record<string, unknown> {
  return { ...raw, formatVersion: 2, memorySaves: [] };
}

const MIGRATIONS: ReadonlyArray<(raw: Record<string, unknown>) => Record<string, unknown>> = [fromV0, fromV1];

/**
 * Migrates stored data of any earlier format to the current one and validates it. A newer format
 * than this SDK knows is refused (`unsupported_format_version`) so old code never overwrites it.
 */
export function migrateQueueSnapshot(raw: unknown): Result<QueueSnapshot> {
  if (!isObject(raw)) return fail({ code: "invalid_type", message: "a queue snapshot must be an object" });
  const version = raw.formatVersion ?? 0;
  if (typeof version !== "number" || !Number.isInteger(version) || version < 0) {
    return fail({ code: "invalid_value", message: "formatVersion must be a non-negative integer" });
  }
  if (version > QUEUE_FORMAT_VERSION) {
    return fail({
      code: UNSUPPORTED_FORMAT,
      message: `format ${version} is newer than this SDK supports (${QUEUE_FORMAT_VERSION})`,
    });
  }
  let current = raw;
  for (let v = version; v < QUEUE_FORMAT_VERSION; v += 1) current = MIGRATIONS[v]!(current);
  const result = snapshotV2(current);
  return result.ok ? ok(result.value) : result;
}
