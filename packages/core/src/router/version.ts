/** Version of the routing engine, stamped on every ModeDecision it makes. */
export const ROUTER_VERSION = "sole-router-1.1.0";
