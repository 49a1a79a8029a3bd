// The store boundary's metadata allowlist lives in core (ports/task-projection.ts), beside the
// TaskStore port, so the SQL and the in-memory task stores apply the same one.
export { projectTaskForStore, type StoreProjectionOptions } from "@solserver/core";
