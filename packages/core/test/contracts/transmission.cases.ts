import { DeliveryAttempt, DeliveryAttemptStatus, Transmission, TransmissionStatus } from "@solserver/core";
import { validDeliveryAttempt, validTransmission } from "../fixtures/valid-contracts.js";
import { bad, type ContractCase, missing, str, unknownKey } from "./helpers.js";

const attempt = validDeliveryAttempt();
const transmission = validTransmission();

export const transmissionCases: Record<string, ContractCase> = {
  TransmissionStatus: {
    schema: TransmissionStatus,
    valid: ["queued", "sending", "succeeded", "failed"],
    invalid: [bad("unknown status", null, [], "sent")],
  },
  DeliveryAttemptStatus: {
    schema: DeliveryAttemptStatus,
    valid: ["sending", "succeeded", "failed"],
    invalid: [bad("queued is not an attempt status", null, [], "queued")],
  },
  DeliveryAttempt: {
    schema: DeliveryAttempt,
    valid: [
      attempt,
      { attemptId: "a", transmissionId: "t", status: "sending", startedAt: "2025-03-01T12:00:00Z" },
    ],
    invalid: [
      bad("empty attemptId", attempt, ["attemptId"], ""),
      bad("transmissionId over 128", attempt, ["transmissionId"], str(129)),
      bad("unknown status", attempt, ["status"], "queued"),
      bad("startedAt not a datetime", attempt, ["startedAt"], "soon"),
      bad("endedAt not a datetime", attempt, ["endedAt"], 5),
      bad("errorCode over 64", attempt, ["errorCode"], str(65)),
      bad("negative latency", attempt, ["latencyMs"], -1),
      missing(attempt, ["startedAt"]),
      unknownKey(attempt),
    ],
  },
  Transmission: {
    schema: Transmission,
    valid: [transmission, { ...transmission, type: "memorySave", deliveryAttempts: [] }],
    invalid: [
      bad("empty transmissionId", transmission, ["transmissionId"], ""),
      bad("unknown type", transmission, ["type"], "email"),
      bad("requestId over 128", transmission, ["requestId"], str(129)),
      bad("unknown status", transmission, ["status"], "done"),
      bad("empty packetId", transmission, ["packetId"], ""),
      bad("attempt status unknown", transmission, ["deliveryAttempts", 0, "status"], "queued"),
      missing(transmission, ["deliveryAttempts"]),
      unknownKey(transmission),
      unknownKey(transmission, ["deliveryAttempts", 0]),
    ],
  },
};
