import type { BreakpointSignalKind } from "./signal-kinds.js";

/** The part of a PacketInput the extraction reads; structural so partial packets and fixtures fit. */
export interface BreakpointSignalSource {
  readonly context?:
    | {
        readonly thread_memento?:
          | {
              readonly signals?:
                | { readonly items?: readonly { readonly kind: BreakpointSignalKind }[] | undefined }
                | undefined;
            }
          | undefined;
      }
    | undefined;
}

/** Signal kinds of `packet.context.thread_memento.signals.items`, in order (duplicates kept). */
export function extractBreakpointSignalKinds(packet: BreakpointSignalSource): BreakpointSignalKind[] {
  const items = packet.context?.thread_memento?.signals?.items ?? [];
  return items.map((item) => item.kind);
}
