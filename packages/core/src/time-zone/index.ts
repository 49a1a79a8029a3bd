export {
  formatInZone,
  isValidTimeZone,
  type ZonedParts,
  zonedIsoString,
  zonedParts,
  zonedTimeToUtc,
  zoneOffsetMinutes,
} from "./zone.js";
