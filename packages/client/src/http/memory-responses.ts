import type { Memory as CoreMemory, Issue, ThreadList, ThreadMessagePage } from "@solserver/core";
import {
  ThreadList as ThreadListSchema,
  ThreadMessagePage as ThreadMessagePageSchema,
} from "@solserver/core";
import type { Validator } from "../validate.js";
import { arrayOf, fieldIssues, fromSchema, shape } from "../validate.js";

// The types are core's (api.md §3 "Memories"); the validators check the fields the SDK reads and
// tolerate extra ones, like the other shapes in responses.ts, so a newer server does not break an
// older client.

/** Who a memory came from. */
export type MemorySource = CoreMemory["source"];

/** One explicit memory of the tenant (api.md §3 "Memories"); `score` is set in a ranked search. */
export type Memory = CoreMemory & { readonly score?: number };

/** Body of `POST /v1/memories`; `requestId` is generated when omitted (keep it to retry safely). */
export interface MemorySaveInput {
  readonly requestId?: string;
  readonly text: string;
  readonly summary?: string;
  readonly domainFlags?: readonly string[];
  readonly threadId?: string;
  readonly source?: MemorySource;
}

/** `GET /v1/memories` filters: `q` ranks by relevance, otherwise newest first. */
export interface MemoryQuery {
  readonly q?: string;
  readonly domain?: string;
  readonly limit?: number;
  readonly after?: string;
}

/** `GET /v1/threads` paging. */
export interface ThreadQuery {
  readonly limit?: number;
  readonly after?: string;
}

/** `GET /v1/threads/:threadId/messages` paging. */
export interface MessageQuery {
  readonly afterSeq?: number;
  readonly limit?: number;
}

const SOURCES: readonly unknown[] = ["user", "assistant", "import"];

/** Validates one Memory. */
export const memory = shape<Memory>(
  {
    memoryId: "string",
    text: "string",
    summary: "string",
    domainFlags: "array",
    threadId: "string?",
    source: "string",
    createdAt: "string",
    updatedAt: "string",
    score: "number?",
  },
  (v): Issue[] => [
    ...(SOURCES.includes(v.source)
      ? []
      : [{ code: "invalid_value", message: "source must be user, assistant or import", path: ["source"] }]),
    ...((v.domainFlags as unknown[]).every((f) => typeof f === "string")
      ? []
      : [{ code: "invalid_type", message: "domainFlags must hold strings", path: ["domainFlags"] }]),
  ],
);

/** A 204: no body at all (read as null). */
const noContent: Validator<null> = (value) =>
  value === null
    ? { ok: true, value: null }
    : { ok: false, issues: [{ code: "invalid_value", message: "expected no content" }] };

/** Validators of the memory and thread routes' answers. */
export const memoryResponses = {
  saved: shape<{ memory: Memory }>({ memory: "object" }, (v) => fieldIssues(v, "memory", memory)),
  memory,
  memories: shape<{ memories: Memory[] }>({ memories: "array" }, (v) =>
    fieldIssues(v, "memories", arrayOf(memory)),
  ),
  threads: fromSchema(ThreadListSchema) as Validator<ThreadList>,
  messages: fromSchema(ThreadMessagePageSchema) as Validator<ThreadMessagePage>,
  noContent,
} as const;

/** `?a=1&b=x` from the defined entries, or "" when none is. */
export function queryString(params: Readonly<Record<string, string | number | undefined>>): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined) query.set(key, String(value));
  const text = query.toString();
  return text === "" ? "" : `?${text}`;
}
