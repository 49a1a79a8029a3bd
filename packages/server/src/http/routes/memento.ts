import { ErrorBody, SolError, ThreadMementoV02 } from "@solserver/core";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppDeps } from "../app-deps.js";

const Params = z.object({ threadId: z.string().min(1).max(128) });

/** Compare-and-swap attempts of one `If-Match: *` (or tag list) PUT that keeps losing to other writers. */
const FLEXIBLE_MATCH_RETRIES = 8;
// A PUT is the client's change: the next turn reads it as the breakpoint's `summaryChanged`.
const BY_CLIENT = { byClient: true } as const;

/** The ETag of a stored memento version. */
export function mementoEtag(version: number): string {
  return `"v${version}"`;
}

/**
 * Parses an If-Match header: `*` (any current version), or the versions its comma-separated ETags
 * name; null when it names none we issued.
 */
function parseIfMatch(header: string): "any" | number[] | null {
  const tags = header.split(",").map((tag) => tag.trim());
  if (tags.includes("*")) return "any";
  const versions: number[] = [];
  for (const tag of tags) {
    // If-Match compares strongly (RFC 9110 §13.1.1): a weak tag never matches.
    const m = /^"v(0|[1-9]\d*)"$/.exec(tag);
    if (m) versions.push(Number(m[1]));
  }
  return versions.length > 0 ? versions : null;
}

/** True when an If-None-Match header names `etag` (weakly) or is `*`. */
function noneMatchHits(header: string | undefined, etag: string): boolean {
  if (typeof header !== "string" || header === "") return false;
  return header.split(",").some((raw) => {
    const tag = raw.trim();
    return tag === "*" || tag === etag || tag === `W/${etag}`;
  });
}

// api.md §2: another tenant's data is a 404, and a thread with no memento cannot be told apart
// from one, so If-Match with nothing stored is a 404 too (not RFC 9110's 412).
function noCurrentVersion(threadId: string): SolError {
  return new SolError("not_found", `No memento for thread ${threadId}; create it with If-None-Match: *.`);
}

/** True when a PUT carries the condition a memento write needs: If-Match, or If-None-Match: * to create. */
function hasWriteCondition(ifMatch: unknown, ifNoneMatch: unknown): boolean {
  return (typeof ifMatch === "string" && ifMatch.length > 0) || ifNoneMatch === "*";
}

function preconditionRequired(): SolError {
  return new SolError(
    "precondition_required",
    "Send If-Match with the memento's ETag (or If-None-Match: * to create).",
  );
}

const ETAG = { ETag: "The memento's version; send it back in If-Match to update it." } as const;
const IF_NONE_MATCH = z.string().optional().describe("An ETag the client holds (304 when still current).");

/** Memento GET/PUT with ETag / If-Match compare-and-swap (api.md §3). */
export function registerMementoRoutes(app: FastifyInstance, deps: AppDeps): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  typed.get(
    "/v1/threads/:threadId/memento",
    {
      config: { responseHeaders: { 200: ETAG, 304: ETAG } },
      // A 304 has no content, so it must not carry the Content-Length of the serialized null
      // (RFC 9110 §8.6: only the length a 200 would have had). No payload: no Content-Length.
      onSend: async (_req, reply, payload) => (reply.statusCode === 304 ? null : payload),
      schema: {
        params: Params,
        headers: z.looseObject({ "if-none-match": IF_NONE_MATCH }),
        response: { 200: ThreadMementoV02, 304: z.null(), 404: ErrorBody },
      },
    },
    async (req, reply) => {
      const stored = await deps.store.mementos.get(req.tenantId, req.params.threadId);
      if (!stored) throw new SolError("not_found", `No memento for thread ${req.params.threadId}.`);
      const etag = mementoEtag(stored.version);
      reply.header("etag", etag);
      // A client revalidating its copy gets 304 without the body (weak comparison, as GET allows).
      if (noneMatchHits(req.headers["if-none-match"], etag)) return reply.code(304).send(null);
      return reply.send(stored.memento);
    },
  );

  typed.put(
    "/v1/threads/:threadId/memento",
    {
      config: { responseHeaders: { 200: ETAG } },
      // api.md §3: a PUT without If-Match is 428 whatever its body holds, so the missing condition is
      // named before the body is validated (a body that is not JSON at all is still a 400).
      preValidation: async (req) => {
        if (!hasWriteCondition(req.headers["if-match"], req.headers["if-none-match"]))
          throw preconditionRequired();
      },
      schema: {
        params: Params,
        headers: z.looseObject({
          "if-match": z.string().optional().describe("The ETag of the version this write replaces, or *."),
          "if-none-match": IF_NONE_MATCH.describe("* to create a memento that does not exist yet."),
        }),
        body: ThreadMementoV02,
        response: { 200: ThreadMementoV02, 400: ErrorBody, 404: ErrorBody, 412: ErrorBody, 428: ErrorBody },
      },
    },
    async (req, reply) => {
      const { threadId } = req.params;
      if (req.body.threadId !== threadId) {
        throw new SolError("invalid_input", "The memento's threadId must match the thread in the path.", {
          details: [{ path: "threadId", message: `expected ${threadId}` }],
        });
      }
      const ifMatch = req.headers["if-match"];
      const ifNoneMatch = req.headers["if-none-match"];
      let expected: number | null;
      // `*` or several tags: the condition holds for whichever version is current, if it is one of them.
      let matches: "any" | number[] | null = null;
      if (typeof ifMatch === "string" && ifMatch.length > 0) {
        matches = parseIfMatch(ifMatch);
        if (matches === null)
          throw new SolError("precondition_failed", "If-Match does not name a current version.");
        const [only, ...others] = matches === "any" ? [] : matches;
        if (only !== undefined && others.length === 0) {
          expected = only;
          matches = null;
        } else {
          const current = await deps.store.mementos.get(req.tenantId, threadId);
          if (current === null) throw noCurrentVersion(threadId);
          if (matches !== "any" && !matches.includes(current.version)) {
            throw new SolError(
              "precondition_failed",
              "The memento changed since those ETags; GET it again and retry.",
              { details: { currentEtag: mementoEtag(current.version) } },
            );
          }
          expected = current.version;
        }
      } else if (ifNoneMatch === "*") {
        expected = null;
      } else {
        throw preconditionRequired();
      }
      const now = new Date().toISOString();
      let result = await deps.store.mementos.put(req.tenantId, threadId, req.body, expected, now, BY_CLIENT);
      // The write is a compare-and-swap on one version. When a turn or another PUT moved the memento
      // on in between, `*` (or a list naming the new version) still holds: swap again on the new one.
      for (let retry = 0; !result.ok && matches !== null && retry < FLEXIBLE_MATCH_RETRIES; retry += 1) {
        const current = result.currentVersion;
        if (current === null || (matches !== "any" && !matches.includes(current))) break;
        result = await deps.store.mementos.put(req.tenantId, threadId, req.body, current, now, BY_CLIENT);
      }
      // If-Match with nothing stored (or another tenant's thread): not found.
      if (!result.ok && expected !== null && result.currentVersion === null) throw noCurrentVersion(threadId);
      if (!result.ok) {
        throw new SolError(
          "precondition_failed",
          matches === null
            ? "The memento changed since that ETag; GET it again and retry."
            : "The memento changed since those ETags; GET it again and retry.",
          {
            details: {
              currentEtag: result.currentVersion === null ? null : mementoEtag(result.currentVersion),
            },
          },
        );
      }
      reply.header("etag", mementoEtag(result.version));
      return reply.send(req.body);
    },
  );
}
