import { PacketInput } from "@solserver/core";
import {
  Budgets,
  PacketContext,
  PacketMeta,
  PartialThreadMemento,
  PinnedContextRef,
  TimeZoneName,
} from "../../src/contracts/packet.js";
import { validPacketInput } from "../fixtures/valid-contracts.js";
import { validMemento } from "../fixtures/valid-memento.js";
import { bad, type ContractCase, many, missing, str, unknownKey } from "./helpers.js";

const packet = validPacketInput();
const minimal = { requestId: "r", threadId: "t", message: "hi" };
const budgets = { maxInputTokens: 1, maxOutputTokens: 1, maxRegenerations: 0, timeoutMs: 1 };
const pinned = { id: "p", version: "v1", hash: "h" };
// breakpoint-engine.md: a request memento "may include signals.items[]" without being a whole memento.
const signalsOnly = {
  signals: {
    updatedAt: "2025-03-01T10:00:00.000Z",
    items: [{ endMessageId: "m1", kind: "decision_made", confidence: "high", source: "server" }],
  },
};

const meta = { client: "web", timezone: "Europe/Paris" };

export const packetCases: Record<string, ContractCase> = {
  TimeZoneName: {
    schema: TimeZoneName,
    valid: ["UTC", "Europe/Paris", "America/Argentina/Buenos_Aires"],
    invalid: [
      bad("an offset", "UTC", [], "+02:00"),
      bad("an unknown zone", "UTC", [], "Mars/Olympus"),
      bad("not a string", "UTC", [], 5),
    ],
  },
  PacketMeta: {
    schema: PacketMeta,
    valid: [meta, {}, { client: "web" }],
    invalid: [
      bad("timezone unknown", meta, ["timezone"], "Europe/Atlantis"),
      bad("timezone not a string", meta, ["timezone"], 120),
      bad("key over 64", { [str(65)]: 1 }, [str(65)], 1),
    ],
  },
  Budgets: {
    schema: Budgets,
    valid: [budgets, {}],
    invalid: [
      bad("maxInputTokens zero", budgets, ["maxInputTokens"], 0),
      bad("maxInputTokens over cap", budgets, ["maxInputTokens"], 2_000_001),
      bad("maxOutputTokens fractional", budgets, ["maxOutputTokens"], 1.5),
      bad("maxRegenerations over 1", budgets, ["maxRegenerations"], 2),
      bad("timeoutMs over cap", budgets, ["timeoutMs"], 600_001),
      unknownKey(budgets),
    ],
  },
  PinnedContextRef: {
    schema: PinnedContextRef,
    valid: [pinned, { ...pinned, version: 0 }],
    invalid: [
      bad("empty id", pinned, ["id"], ""),
      bad("negative version", pinned, ["version"], -1),
      bad("hash over 128", pinned, ["hash"], str(129)),
      missing(pinned, ["hash"]),
      unknownKey(pinned),
    ],
  },
  PartialThreadMemento: {
    schema: PartialThreadMemento,
    valid: [signalsOnly, { signals: { updatedAt: "2025-03-01T10:00:00Z" } }],
    invalid: [
      bad("unknown signal kind", signalsOnly, ["signals", "items", 0, "kind"], "bogus"),
      bad("item confidence unknown", signalsOnly, ["signals", "items", 0, "confidence"], "bogus"),
      bad("item endMessageId empty", signalsOnly, ["signals", "items", 0, "endMessageId"], ""),
      missing(signalsOnly, ["signals", "items", 0, "source"]),
      bad("over 8 signals", signalsOnly, ["signals", "items"], many(9, signalsOnly.signals.items[0])),
      bad("updatedAt not a datetime", signalsOnly, ["signals", "updatedAt"], "not-a-date"),
      bad("updatedAt with an offset", signalsOnly, ["signals", "updatedAt"], "2025-03-01T12:00:00+02:00"),
      missing(signalsOnly, ["signals", "updatedAt"]),
      missing(signalsOnly, ["signals"]),
      unknownKey(signalsOnly),
      unknownKey(signalsOnly, ["signals", "items", 0]),
    ],
  },
  PacketContext: {
    schema: PacketContext,
    valid: [{}, { thread_memento: validMemento() }, { thread_memento: signalsOnly }],
    invalid: [
      bad("memento arc over 200", { thread_memento: validMemento() }, ["thread_memento", "arc"], str(201)),
      bad(
        "signals-only kind unknown",
        { thread_memento: signalsOnly },
        ["thread_memento", "signals", "items", 0, "kind"],
        "x",
      ),
      // Any key besides `signals` makes it a whole memento, validated as one.
      missing({ thread_memento: validMemento() }, ["thread_memento", "mementoId"]),
      bad(
        "whole memento, bad version",
        { thread_memento: validMemento() },
        ["thread_memento", "version"],
        "memento-v9",
      ),
      unknownKey({}),
    ],
  },
  PacketInput: {
    schema: PacketInput,
    valid: [packet, minimal, { ...minimal, message: str(20_000) }],
    invalid: [
      missing(packet, ["requestId"]),
      bad("requestId over 128", packet, ["requestId"], str(129)),
      bad("empty requestId", packet, ["requestId"], ""),
      missing(packet, ["threadId"]),
      bad("empty message", packet, ["message"], ""),
      bad("message over 20000", packet, ["message"], str(20_001)),
      bad("empty packetId", packet, ["packetId"], ""),
      bad("packetType not chat", packet, ["packetType"], "sync"),
      bad("messageIds over 200", packet, ["messageIds"], many(201, "m")),
      bad("checkpointIds over 50", packet, ["checkpointIds"], many(51, "c")),
      bad("budget timeout zero", packet, ["budgets", "timeoutMs"], 0),
      bad("pinned hash empty", packet, ["pinnedContextRef", "hash"], ""),
      bad("unknown driverBlockMode", packet, ["driverBlockMode"], "mixed"),
      bad("driverBlockRefs over 100", packet, ["driverBlockRefs"], many(101, { id: "a", version: 1 })),
      bad("driverBlockRef id empty", packet, ["driverBlockRefs", 0, "id"], ""),
      bad("inline block title empty", packet, ["driverBlockInline", 0, "title"], ""),
      bad(
        "memento signals over 8",
        packet,
        ["context", "thread_memento", "signals", "items"],
        many(9, validMemento().signals?.items[0]),
      ),
      bad("unknown thread_context_mode", packet, ["thread_context_mode"], "on"),
      bad("unknown trace level", packet, ["traceConfig", "level"], "trace"),
      bad("meta not an object", packet, ["meta"], "x"),
      unknownKey(packet),
      unknownKey(packet, ["context"]),
      unknownKey(packet, ["traceConfig"]),
    ],
  },
};
