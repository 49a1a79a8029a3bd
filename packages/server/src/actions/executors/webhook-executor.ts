import { type ActionExecutor, SolError } from "@solserver/core";
import { z } from "zod";
import { parsePayload } from "./payload.js";

/** Where the webhook executor may send. */
export interface WebhookOptions {
  /** The default target (SOL_WEBHOOK_URL), used when the payload names no `url`. */
  readonly url?: string;
  /** Origins a payload's own `url` may use (SOL_WEBHOOK_ALLOWLIST); else only `url` itself. */
  readonly allowlist?: readonly string[];
  readonly fetch?: typeof fetch;
}

const WebhookPayload = z.looseObject({ url: z.string().min(1).max(2048).optional() });

function originOf(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed.origin : null;
  } catch {
    return null;
  }
}

/**
 * `webhook`: POSTs `{ action_id, thread_id, data }` as JSON to the configured URL. A model-proposed
 * `url` is used only when it is that URL or its origin is allowlisted, so a proposal cannot send
 * thread data anywhere else; redirects are not followed for the same reason. `idempotency-key` is the action id, so a
 * receiver can drop a repeat after a crash-recovered retry.
 */
export function createWebhookExecutor(options: WebhookOptions = {}): ActionExecutor {
  const send = options.fetch ?? fetch;
  const allowed = new Set((options.allowlist ?? []).map(originOf).filter((o): o is string => o !== null));
  const configured = options.url ? new URL(options.url).href : null;
  function target(url: string | undefined): URL {
    if (url === undefined) {
      if (configured === null) {
        throw new SolError("unavailable", "No webhook is configured (set SOL_WEBHOOK_URL).");
      }
      return new URL(configured);
    }
    const origin = originOf(url);
    // The configured URL itself, not its whole origin: another path on that host (an admin route
    // beside the hook) is a different endpoint, and a proposal must not choose it.
    const isConfigured = origin !== null && new URL(url).href === configured;
    if (!isConfigured && (origin === null || !allowed.has(origin))) {
      throw new SolError("invalid_input", "The webhook URL is not on the allowlist (SOL_WEBHOOK_ALLOWLIST).");
    }
    return new URL(url);
  }
  return {
    kind: "webhook",
    policyParams(payload) {
      const url = typeof payload.url === "string" ? payload.url : undefined;
      try {
        const to = target(url);
        return { url: to.href, host: to.hostname };
      } catch {
        // Where it would go is unknown (no default, or a URL off the allowlist): policies see no host.
        return url === undefined ? {} : { url };
      }
    },
    async execute(payload, ctx) {
      const { url, ...data } = parsePayload(WebhookPayload, payload, "webhook");
      const to = target(url);
      const controller = new AbortController();
      const abort = () => controller.abort();
      ctx.signal.addEventListener("abort", abort, { once: true });
      if (ctx.signal.aborted) controller.abort();
      let res: Response;
      try {
        res = await send(to, {
          method: "POST",
          headers: { "content-type": "application/json", "idempotency-key": ctx.actionId },
          body: JSON.stringify({ action_id: ctx.actionId, thread_id: ctx.threadId, data }),
          redirect: "manual",
          signal: controller.signal,
        });
      } catch (cause) {
        throw new SolError("unavailable", `Could not reach the webhook at ${to.host}.`, { cause });
      } finally {
        ctx.signal.removeEventListener("abort", abort);
      }
      await res.body?.cancel().catch(() => {});
      if (res.status >= 200 && res.status < 300) {
        return { summary: `Webhook delivered to ${to.host} (HTTP ${res.status}).` };
      }
      throw new SolError("unavailable", `The webhook at ${to.host} answered HTTP ${res.status}.`);
    },
  };
}
