import {
  type Issue,
  isWholeThreadMemento,
  type PacketInput,
  type Result,
  SolError,
  type ThreadMementoV02,
} from "@solserver/core";

/**
 * The request's memento when it is a whole v0.2 memento (a signals-only one only feeds the
 * breakpoint). The packet schema already validated it as one or the other.
 */
export function wholeMemento(
  memento: NonNullable<PacketInput["context"]>["thread_memento"],
): ThreadMementoV02 | undefined {
  return memento !== undefined && isWholeThreadMemento(memento) ? memento : undefined;
}

/** The Driver Block fields of a packet, as the policy engine takes them. */
export function policyRequest(packet: PacketInput) {
  return {
    ...(packet.driverBlockMode ? { driverBlockMode: packet.driverBlockMode } : {}),
    ...(packet.driverBlockRefs ? { driverBlockRefs: packet.driverBlockRefs } : {}),
    ...(packet.driverBlockInline ? { driverBlockInline: packet.driverBlockInline } : {}),
  };
}

/** A Driver Block resolution that failed is the client's fault: 400 (`driver_block_limit` when a limit). */
export function throwOnDriverBlockIssues(resolved: Result<unknown, Issue>): void {
  if (resolved.ok) return;
  const first = resolved.issues[0];
  throw new SolError(
    first?.code === "driver_block_limit" ? "driver_block_limit" : "invalid_input",
    first?.message ?? "Invalid Driver Blocks.",
    {
      details: resolved.issues.map((i) => ({
        path: (i.path ?? []).join("."),
        message: i.message,
        code: i.code,
      })),
    },
  );
}
