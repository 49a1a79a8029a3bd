import { z } from "zod";

export const TransmissionStatus = z.enum(["queued", "sending", "succeeded", "failed"]);
export type TransmissionStatus = z.infer<typeof TransmissionStatus>;

export const DeliveryAttemptStatus = z.enum(["sending", "succeeded", "failed"]);
export type DeliveryAttemptStatus = z.infer<typeof DeliveryAttemptStatus>;

/** One try at delivering a Transmission. */
export const DeliveryAttempt = z
  .object({
    attemptId: z.string().min(1).max(128),
    transmissionId: z.string().min(1).max(128),
    status: DeliveryAttemptStatus,
    startedAt: z.iso.datetime({ offset: true }),
    endedAt: z.iso.datetime({ offset: true }).optional(),
    errorCode: z.string().min(1).max(64).optional(),
    latencyMs: z.number().nonnegative().optional(),
  })
  .strict();
export type DeliveryAttempt = z.infer<typeof DeliveryAttempt>;

/** The remote unit of work carrying a Packet; `requestId` is its idempotency key. */
export const Transmission = z
  .object({
    transmissionId: z.string().min(1).max(128),
    type: z.enum(["chat", "memorySave", "usage", "sync"]),
    requestId: z.string().min(1).max(128),
    status: TransmissionStatus,
    packetId: z.string().min(1).max(128).optional(),
    deliveryAttempts: z.array(DeliveryAttempt),
  })
  .strict();
export type Transmission = z.infer<typeof Transmission>;
