import type { DriverBlockView } from "@solserver/core";
import type { Validator } from "../validate.js";
import { arrayOf, fieldIssues, shape } from "../validate.js";

export type { DriverBlockView } from "@solserver/core";

// Checks the fields the SDK and the web client read and tolerates extra ones, like memory-responses.ts.
const view = shape<DriverBlockView>({
  id: "string",
  version: "number",
  enabled: "boolean",
  hash: "string",
  summary: "array",
  block: "object",
  createdAt: "string",
  updatedAt: "string",
});

/** `GET /v1/driver-blocks`. */
export const driverBlockList = shape<{ driverBlocks: DriverBlockView[] }>({ driverBlocks: "array" }, (v) =>
  fieldIssues(v, "driverBlocks", arrayOf(view)),
);

/** `PATCH /v1/driver-blocks/:id`. */
export const driverBlockEnvelope: Validator<{ driverBlock: DriverBlockView }> = shape<{
  driverBlock: DriverBlockView;
}>({ driverBlock: "object" }, (v) => fieldIssues(v, "driverBlock", view));
