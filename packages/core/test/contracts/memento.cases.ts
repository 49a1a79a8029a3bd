import { ThreadMementoShape, ThreadMementoV02 } from "@solserver/core";
import { validMemento } from "../fixtures/valid-memento.js";
import { bad, type ContractCase, many, missing, str, unknownKey } from "./helpers.js";

const shape = { arc: "Planning", active: ["a"], parked: [], decisions: ["d"], next: ["n"] };
const memento = validMemento();
const { signals: _signals, ...mementoWithoutSignals } = memento;

export const mementoCases: Record<string, ContractCase> = {
  ThreadMementoShape: {
    schema: ThreadMementoShape,
    valid: [shape, { ...shape, active: many(50, "a") }],
    invalid: [
      bad("arc over 200", shape, ["arc"], str(201)),
      bad("empty arc", shape, ["arc"], ""),
      bad("active over 50", shape, ["active"], many(51, "a")),
      bad("parked item empty", shape, ["parked", 0], ""),
      bad("decisions item over 200", shape, ["decisions", 0], str(201)),
      bad("next not an array", shape, ["next"], "n"),
      missing(shape, ["next"]),
      unknownKey(shape),
    ],
  },
  ThreadMementoV02: {
    schema: ThreadMementoV02,
    valid: [memento, mementoWithoutSignals],
    invalid: [
      bad("empty mementoId", memento, ["mementoId"], ""),
      bad("mementoId over 128", memento, ["mementoId"], str(129)),
      bad("threadId over 128", memento, ["threadId"], str(129)),
      bad("createdTs not a datetime", memento, ["createdTs"], "now"),
      bad("wrong version", memento, ["version"], "memento-v0.1"),
      bad("arc over 200", memento, ["arc"], str(201)),
      bad("active over 50", memento, ["active"], many(51, "a")),
      bad("parked item over 200", memento, ["parked", 0], str(201)),
      bad("decisions not an array", memento, ["decisions"], "d"),
      bad("next item empty", memento, ["next", 0], ""),
      bad("affect points over 5", memento, ["affect", "points"], many(6, memento.affect.points[0])),
      bad("affect intensity > 1", memento, ["affect", "points", 0, "intensity"], 1.5),
      bad("signals.items over 8", memento, ["signals", "items"], many(9, memento.signals?.items[0])),
      bad("signal summary over 180", memento, ["signals", "items", 0, "summary"], str(181)),
      missing(memento, ["affect"]),
      missing(memento, ["threadId"]),
      unknownKey(memento),
      unknownKey(memento, ["affect"]),
      unknownKey(memento, ["signals"]),
    ],
  },
};
