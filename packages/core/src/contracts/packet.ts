import { z } from "zod";
import { isValidTimeZone } from "../time-zone/index.js";
import { DriverBlock, DriverBlockRef } from "./driver-block.js";
import { ThreadMementoV02 } from "./memento.js";
import { ThreadMementoSignals } from "./signals.js";

const Id = z.string().min(1).max(128);

/** An IANA time-zone name the runtime knows ("Europe/Paris"); offsets and abbreviations are refused. */
export const TimeZoneName = z
  .string()
  .refine(isValidTimeZone, { message: 'Expected an IANA time zone such as "Europe/Paris" or "UTC".' });

/** Most JSON a packet's `meta` may hold: client facts are a few fields, never a document. */
export const MAX_PACKET_META_CHARS = 16_384;

/**
 * `meta`: free-form client facts (app version, locale...), at most MAX_PACKET_META_CHARS of JSON (a
 * larger one would ride through the whole turn: hashed, stored, replayed); `timezone`, when present,
 * is checked.
 */
export const PacketMeta = z.record(z.string().max(64), z.unknown()).superRefine((meta, ctx) => {
  if ((JSON.stringify(meta)?.length ?? 0) > MAX_PACKET_META_CHARS) {
    ctx.addIssue({
      code: "custom",
      message: `meta must be at most ${MAX_PACKET_META_CHARS} characters of JSON; it holds client facts (app version, locale, timezone).`,
    });
    return;
  }
  if (meta.timezone === undefined) return;
  const zone = TimeZoneName.safeParse(meta.timezone);
  if (!zone.success) {
    ctx.addIssue({
      code: "custom",
      path: ["timezone"],
      message: 'meta.timezone must be an IANA time zone such as "Europe/Paris" or "UTC".',
    });
  }
});

export const Budgets = z
  .object({
    maxInputTokens: z.number().int().positive().max(2_000_000).optional(),
    maxOutputTokens: z.number().int().positive().max(200_000).optional(),
    maxRegenerations: z.number().int().min(0).max(1).optional(),
    timeoutMs: z.number().int().positive().max(600_000).optional(),
  })
  .strict();
export type Budgets = z.infer<typeof Budgets>;

export const PinnedContextRef = z
  .object({
    id: z.string().min(1).max(128),
    version: z.union([z.string().min(1).max(32), z.number().int().nonnegative()]),
    hash: z.string().min(1).max(128),
  })
  .strict();
export type PinnedContextRef = z.infer<typeof PinnedContextRef>;

/**
 * A client memento that is only the signals block of one: breakpoint-engine.md says the request's
 * memento "may include `signals.items[]`", and the engine reads only their kinds. It holds exactly
 * `signals`, validated as `ThreadMementoSignals`; it feeds the Breakpoint Engine and never becomes the
 * turn's baseline memento.
 */
export const PartialThreadMemento = z.object({ signals: ThreadMementoSignals }).strict();
export type PartialThreadMemento = z.infer<typeof PartialThreadMemento>;

/** True for a whole v0.2 memento (it has a mementoId); false for a signals-only one. */
export function isWholeThreadMemento(memento: object): memento is ThreadMementoV02 {
  return "mementoId" in memento;
}

// Only `{ signals }` is signals-only; anything else is validated as a whole memento, so a memento that
// lost its mementoId (or any other field) is a 400 naming that field rather than being read as signals.
// Not a z.union: its error would only say "invalid".
const RequestMemento = z
  .custom<ThreadMementoV02 | PartialThreadMemento>((value) => typeof value === "object" && value !== null, {
    message: "thread_memento must be an object",
  })
  .transform((value, ctx) => {
    const signalsOnly = Object.keys(value).every((key) => key === "signals") && "signals" in value;
    const parsed = (signalsOnly ? PartialThreadMemento : ThreadMementoV02).safeParse(value);
    if (parsed.success) return parsed.data as ThreadMementoV02 | PartialThreadMemento;
    for (const issue of parsed.error.issues) {
      ctx.addIssue({ code: "custom", message: issue.message, path: issue.path as PropertyKey[] });
    }
    return z.NEVER;
  });

export const PacketContext = z
  .object({
    thread_memento: RequestMemento.optional(),
  })
  .strict();
export type PacketContext = z.infer<typeof PacketContext>;

/** The body of `POST /v1/chat`: one user turn plus what the client knows about its thread. */
export const PacketInput = z
  .object({
    requestId: Id,
    threadId: Id,
    message: z.string().min(1).max(20_000),
    packetId: Id.optional(),
    packetType: z.literal("chat").default("chat"),
    messageIds: z.array(Id).max(200).optional(),
    checkpointIds: z.array(Id).max(50).optional(),
    budgets: Budgets.optional(),
    pinnedContextRef: PinnedContextRef.optional(),
    driverBlockMode: z.enum(["default", "custom"]).optional(),
    // Hard caps only bound the payload; the policy engine enforces the product limits with a named error.
    driverBlockRefs: z.array(DriverBlockRef).max(100).optional(),
    driverBlockInline: z.array(DriverBlock).max(100).optional(),
    context: PacketContext.optional(),
    thread_context_mode: z.enum(["off", "auto"]).default("auto"),
    traceConfig: z
      .object({ level: z.enum(["info", "debug"]).default("info") })
      .strict()
      .optional(),
    meta: PacketMeta.optional(),
  })
  .strict();
export type PacketInput = z.infer<typeof PacketInput>;
/** What a client sends (defaults not yet applied). */
export type PacketInputBody = z.input<typeof PacketInput>;
