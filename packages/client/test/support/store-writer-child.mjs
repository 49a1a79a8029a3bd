// Child process for the atomicity test: saves ever larger snapshots with the BUILT FileQueueStore
// and prints `saved <n>` after each save completed, until it is killed.
// Usage: node store-writer-child.mjs <storePath>
import { FileQueueStore } from "../../dist/node/index.js";

const [storePath] = process.argv.slice(2);
const store = new FileQueueStore({ path: storePath });
const message = (i) => ({
  messageId: `msg_${i}`,
  threadId: "thread",
  role: "user",
  content: `message ${i} `.repeat(20),
  createdAt: "2025-01-01T00:00:00.000Z",
  transmissionId: null,
  captureIds: [],
});
const messages = [];
for (;;) {
  for (let i = 0; i < 200; i += 1) messages.push(message(messages.length));
  await store.save({ formatVersion: 1, transmissions: [], messages, captures: [] });
  process.stdout.write(`saved ${messages.length}\n`);
}
