// Child process for the crash test: runs a TransmissionQueue on a FileQueueStore using the BUILT
// client. Usage: node queue-child.mjs <storePath> <baseUrl> <enqueue|resume> [threads] [perThread]
// Prints one JSON object per line: {event:"enqueued", items}, {event:"replayed", requestId} for every
// answer that was an idempotent replay, then {event:"drained", transmissions}.
import { SolClient, TransmissionQueue } from "../../dist/index.js";
import { FileQueueStore } from "../../dist/node/index.js";

const [storePath, baseUrl, mode, threads = "3", perThread = "6"] = process.argv.slice(2);
const print = (value) => process.stdout.write(`${JSON.stringify(value)}\n`);

const client = new SolClient({ baseUrl, timeoutMs: 20_000 });
const queue = new TransmissionQueue({
  send: async (packet, { signal }) => {
    const reply = await client.chatWithMeta(packet, { signal });
    if (reply.replayed) print({ event: "replayed", requestId: packet.requestId });
    return reply.response;
  },
  store: new FileQueueStore({ path: storePath }),
  backoff: { baseMs: 5, maxMs: 50, factor: 2, jitter: 0.5 },
  maxAttempts: 100,
  concurrency: 3,
});
await queue.load();
if (mode === "enqueue") {
  const items = [];
  for (let i = 0; i < Number(perThread); i += 1) {
    for (let t = 0; t < Number(threads); t += 1) {
      const threadId = `thread-${t}`;
      const message = `${threadId} message ${i}`;
      items.push({ threadId, message, ...queue.enqueue({ threadId, message }) });
    }
  }
  await Promise.all(items.map((item) => item.persisted));
  print({ event: "enqueued", items: items.map(({ persisted: _, ...rest }) => rest) });
}
await queue.start();
await queue.drain();
print({
  event: "drained",
  transmissions: queue.listTransmissions().map((t) => ({
    requestId: t.requestId,
    threadId: t.threadId,
    status: t.status,
    attempts: t.deliveryAttempts.map((a) => a.errorCode ?? a.status),
    answer: t.response?.assistant.messageId ?? null,
  })),
});
await queue.stop();
