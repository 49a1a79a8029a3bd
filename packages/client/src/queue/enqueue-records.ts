import type { IdGenerator, Issue, PacketInputBody, Result } from "@solserver/core";
import { fail, ok, PacketInput } from "@solserver/core";
import type { CaptureRecord, LocalMessage, QueuedTransmission } from "../records.js";
import { asJson, fromSchema } from "../validate.js";

/** An attachment of a message; `source` must be JSON (a URI, a file name, inline text...) and is kept in its JSON form. */
export interface CaptureInput {
  readonly kind: string;
  readonly source: unknown;
}

/** A message to send: the fields of PacketInput (requestId generated when omitted) plus attachments. */
export type EnqueueInput = Omit<PacketInputBody, "requestId"> & {
  readonly requestId?: string;
  readonly attachments?: readonly CaptureInput[];
};

/** The records one enqueued message creates. */
export interface EnqueueRecords {
  readonly message: LocalMessage;
  readonly captures: readonly CaptureRecord[];
  readonly transmission: QueuedTransmission;
}

const validPacket = fromSchema(PacketInput);

/**
 * Each attachment needs a kind and a JSON source (kept in its JSON form): the store must read the
 * capture back after a restart.
 */
function storedAttachments(attachments: readonly CaptureInput[]): Result<CaptureInput[]> {
  const issues: Issue[] = [];
  const stored = attachments.map((a, i) => {
    if (typeof a.kind !== "string" || a.kind.length === 0) {
      issues.push({
        code: "invalid_type",
        message: "kind must be a non-empty string",
        path: ["attachments", i, "kind"],
      });
    }
    const source = asJson(a.source, ["attachments", i, "source"]);
    if (!source.ok) issues.push(...source.issues);
    return { kind: a.kind, source: source.ok ? source.value : undefined };
  });
  return issues.length === 0 ? ok(stored) : fail(...issues);
}

/** Builds the local message, its pending captures and its queued transmission, or the input's issues. */
export function buildEnqueueRecords(
  input: EnqueueInput,
  seq: number,
  nowMs: number,
  ids: IdGenerator,
): Result<EnqueueRecords> {
  const { attachments: given = [], requestId = ids("req"), ...fields } = input;
  // The packet is stored (and sent) in its JSON form: what a restart reads back is what was sent.
  const json = asJson({ ...fields, requestId, packetId: fields.packetId ?? ids("pkt") });
  if (!json.ok) return json;
  const packet = json.value as PacketInputBody;
  const checked = validPacket(packet);
  const attachments = storedAttachments(given);
  if (!checked.ok || !attachments.ok) {
    return fail(...(checked.ok ? [] : checked.issues), ...(attachments.ok ? [] : attachments.issues));
  }
  const now = new Date(nowMs).toISOString();
  const transmissionId = ids("tx");
  const messageId = ids("msg");
  const captures: CaptureRecord[] = attachments.value.map((a) => ({
    captureId: ids("cap"),
    messageId,
    threadId: fields.threadId,
    kind: a.kind,
    source: a.source,
    status: "pending",
    attempts: 0,
    createdAt: now,
    updatedAt: now,
  }));
  return ok({
    message: {
      messageId,
      threadId: fields.threadId,
      role: "user",
      content: fields.message,
      createdAt: now,
      transmissionId,
      captureIds: captures.map((c) => c.captureId),
    },
    captures,
    transmission: {
      transmissionId,
      type: "chat",
      requestId,
      status: "queued",
      ...(packet.packetId === undefined ? {} : { packetId: packet.packetId }),
      deliveryAttempts: [],
      threadId: fields.threadId,
      localMessageId: messageId,
      packet,
      seq,
      createdAt: now,
      updatedAt: now,
      failuresInRound: 0,
      nextAttemptAt: null,
      lastError: null,
    },
  });
}
