import { z } from "zod";
import { ThreadMementoAffect } from "./affect.js";
import { ThreadMementoSignals } from "./signals.js";

export const MEMENTO_VERSION = "memento-v0.2" as const;

const ShapeItem = z.string().min(1).max(200);
const ShapeList = z.array(ShapeItem).max(50);

/** The summary fields a breakpoint may update: arc, active, parked, decisions, next. */
export const ThreadMementoShape = z
  .object({
    arc: z.string().min(1).max(200),
    active: ShapeList,
    parked: ShapeList,
    decisions: ShapeList,
    next: ShapeList,
  })
  .strict();
export type ThreadMementoShape = z.infer<typeof ThreadMementoShape>;

/** Thread memento v0.2: the explicit memory summary of one thread. */
export const ThreadMementoV02 = z
  .object({
    mementoId: z.string().min(1).max(128),
    threadId: z.string().min(1).max(128),
    createdTs: z.iso.datetime({ offset: true }),
    version: z.literal(MEMENTO_VERSION),
    arc: z.string().min(1).max(200),
    active: ShapeList,
    parked: ShapeList,
    decisions: ShapeList,
    next: ShapeList,
    affect: ThreadMementoAffect,
    signals: ThreadMementoSignals.optional(),
  })
  .strict();
export type ThreadMementoV02 = z.infer<typeof ThreadMementoV02>;
/** Input form (before defaults such as `signals.items = []` are applied). */
export type ThreadMementoV02Input = z.input<typeof ThreadMementoV02>;
