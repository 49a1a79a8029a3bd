export { formatOffset, type TraceEventLike, type TraceRow, traceRows } from "./trace-rows.js";
