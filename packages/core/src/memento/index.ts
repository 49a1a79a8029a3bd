export type { BaselineMemento, BaselineMementoSource, ResolveBaselineArgs } from "./baseline.js";
export { resolveBaselineMemento } from "./baseline.js";
export type { BuildNextMementoArgs, MementoChanges, NextMemento } from "./build.js";
export { buildNextMemento, MAX_SIGNAL_ITEMS, mementoChanges } from "./build.js";
export type { DecisionsRecall } from "./decisions-recall.js";
export {
  decisionsFromCapsule,
  isDecisionsQuestion,
  recallDecisions,
  renderDecisionsContext,
} from "./decisions-recall.js";
export { withDetectedDecisions } from "./detected-decisions.js";
export type { PersistMementoArgs } from "./persist-policy.js";
export { MEMENTO_PERSIST_EVERY_TURNS, shouldPersistMemento } from "./persist-policy.js";
export type { MergeMementoShapeArgs, RebaseMementoShapeArgs } from "./shape.js";
export {
  bootstrapThreadMementoShape,
  defaultMementoShape,
  mementoShapeOf,
  mergeMementoShape,
  rebaseMementoShape,
  sameMementoShape,
} from "./shape.js";
export { sameSignalItems, signalItemsFromEnvelope } from "./signals.js";
