import { formatInZone, type PacketInput } from "@solserver/core";

/** The packet's `meta.timezone` (PacketInput has checked it is a valid IANA zone), if any. */
export function packetTimeZone(packet: PacketInput): string | undefined {
  const zone = packet.meta?.timezone;
  return typeof zone === "string" ? zone : undefined;
}

/**
 * The prompt line that lets a model read relative times ("tomorrow at 9") where the user is: their
 * zone and local time now. Due times in action payloads stay ISO 8601 instants with an offset.
 */
export function timeZoneContextLine(zone: string, nowMs: number): string {
  return `The user's time zone is ${zone}; their local time now is ${formatInZone(nowMs, zone)}. Read relative times ("tomorrow at 9", "in 2 hours", weekdays) in that zone, and give due times in action payloads as ISO 8601 instants with an offset.`;
}
