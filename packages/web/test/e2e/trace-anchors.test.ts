import { traceHashInput } from "@solserver/core";
import { sql } from "kysely";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sha256Hex } from "../../../server/src/store/canonical-json.js";
import type { TestServer } from "../../../server/test/support/test-server.js";
import { launchChromium } from "./support/browser.js";
import { assistantMessage, openChat, sendMessage } from "./support/chat-page.js";
import { saveScreenshot } from "./support/screenshots.js";
import { startWebServer } from "./support/web-server.js";

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  server = await startWebServer();
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** Rewrites a run's first summary in the database and recomputes its whole chain, as a DB writer could. */
async function rewriteRun(traceRunId: string): Promise<void> {
  const { rows } = await sql<{
    tenant_id: string;
  }>`select tenant_id from trace_events where trace_run_id = ${traceRunId} limit 1`.execute(
    server.server.store.db,
  );
  const tenantId = rows[0]?.tenant_id ?? "default";
  const events = await server.server.store.traces.get(tenantId, traceRunId);
  let prevHash = "0".repeat(64);
  for (const event of events) {
    const changed = {
      ...event,
      prevHash,
      ...(event.seq === 0 ? { summary: "rewritten in the database" } : {}),
    };
    const hash = sha256Hex(traceHashInput(changed));
    await sql`update trace_events set summary = ${changed.summary ?? null}, prev_hash = ${prevHash}, hash = ${hash}
      where tenant_id = ${tenantId} and trace_run_id = ${traceRunId} and seq = ${event.seq}`.execute(
      server.server.store.db,
    );
    prevHash = hash;
  }
}

describe("trace viewer and the account's anchor chain", () => {
  it("says a run matches its anchors, and flags one rewritten with a recomputed chain", async () => {
    const { context, page } = await openChat(browser, server.url);
    await sendMessage(page, "what is a control plane?");
    const reply = assistantMessage(page);
    await reply.getByRole("button", { name: "About this reply" }).click();
    await reply.getByRole("button", { name: "Trace" }).click();
    const panel = page.getByRole("dialog", { name: "Trace of this turn" });
    await panel.locator(".trace-anchor").waitFor();
    expect(await panel.locator(".trace-anchor").textContent()).toMatch(
      /^Matches its anchor in this account's trace chain\.$/,
    );
    const traceRunId = (await panel.locator(".trace-id").textContent()) ?? "";
    expect(traceRunId).not.toBe("");
    await panel.getByRole("button", { name: "Close" }).click();
    await rewriteRun(traceRunId);
    await reply.getByRole("button", { name: "Trace" }).click();
    const reopened = page.getByRole("dialog", { name: "Trace of this turn" });
    const alert = reopened.getByRole("alert");
    await alert.waitFor();
    // The run's own chain still verifies (it was recomputed); only the anchor catches it.
    expect(await reopened.locator(".trace-chain").textContent()).toMatch(
      /^Hash chain verified in this browser/,
    );
    expect(await alert.textContent()).toBe("Anchor check failed: it was rewritten after it was recorded.");
    expect(await reopened.locator(".tl-summary").first().textContent()).toBe("rewritten in the database");
    await saveScreenshot(reopened, "trace-anchor-rewritten");
    await context.close();
  });
});
