import { ThreadMementoSignalItem, ThreadMementoSignalKind, ThreadMementoSignals } from "@solserver/core";
import { ConfidenceBucket } from "../../src/contracts/signals.js";
import { validSignalItem } from "../fixtures/valid-memento.js";
import { bad, type ContractCase, many, missing, str, unknownKey } from "./helpers.js";

const item = validSignalItem();
const signals = { updatedAt: "2025-03-01T12:00:00Z", items: [item] };

export const signalCases: Record<string, ContractCase> = {
  ThreadMementoSignalKind: {
    schema: ThreadMementoSignalKind,
    valid: ThreadMementoSignalKind.options,
    invalid: [bad("unknown kind", null, [], "celebration"), bad("not a string", null, [], 3)],
  },
  ConfidenceBucket: {
    schema: ConfidenceBucket,
    valid: ["low", "med", "high"],
    invalid: [bad("medium is not a bucket", null, [], "medium")],
  },
  ThreadMementoSignalItem: {
    schema: ThreadMementoSignalItem,
    valid: [item, { endMessageId: "m", kind: "pivot", confidence: "low", source: "model" }],
    invalid: [
      missing(item, ["endMessageId"]),
      bad("empty endMessageId", item, ["endMessageId"], ""),
      bad("unknown kind", item, ["kind"], "celebration"),
      bad("unknown confidence", item, ["confidence"], "certain"),
      bad("unknown source", item, ["source"], "client"),
      bad("summary over 180", item, ["summary"], str(181)),
      unknownKey(item),
    ],
  },
  ThreadMementoSignals: {
    schema: ThreadMementoSignals,
    valid: [signals, { updatedAt: "2025-03-01T12:00:00Z" }, { ...signals, items: many(8, item) }],
    invalid: [
      // breakpoint-engine.md's z.string().datetime() takes UTC only.
      bad("updatedAt with an offset", signals, ["updatedAt"], "2025-03-01T12:00:00+02:00"),
      missing(signals, ["updatedAt"]),
      bad("updatedAt not a datetime", signals, ["updatedAt"], "yesterday"),
      bad("items over 8", signals, ["items"], many(9, item)),
      bad("bad item kind", signals, ["items", 0, "kind"], "nope"),
      unknownKey(signals),
      unknownKey(signals, ["items", 0]),
    ],
  },
};
