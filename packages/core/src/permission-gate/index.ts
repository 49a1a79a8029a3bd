export { ACTION_BINDING_VERSION, type ActionBindingFields, actionBindingInput } from "./action-binding.js";
export { canonicalPayloadJson, hashActionPayload } from "./payload-hash.js";
export type { IdenticalAction, ProposalDecision } from "./proposal-dedup.js";
export { decideProposal, PROPOSAL_BLOCKING_STATUSES, userAsksForAction } from "./proposal-dedup.js";
export {
  ACTION_TRANSITIONS,
  ActionEvent,
  APPROVABLE_ACTION_STATUSES,
  applyActionEvents,
  isTerminalActionStatus,
  transitionAction,
} from "./state-machine.js";
