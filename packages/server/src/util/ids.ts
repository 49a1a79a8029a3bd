import { randomUUID } from "node:crypto";
import type { IdGenerator } from "@solserver/core";

/** Random, prefixed identifiers such as `tx_3f1c...`. */
export const randomIds: IdGenerator = (prefix) => `${prefix}_${randomUUID().replaceAll("-", "")}`;
