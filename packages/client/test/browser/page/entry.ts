import { IndexedDbQueueStore, SolClient, TransmissionQueue } from "../../../src/index.js";

// The SDK as a page script: the browser test drives it through `window.sol`.

/** What the test page exposes on `window.sol`. */
export interface SolPageApi {
  readonly SolClient: typeof SolClient;
  readonly TransmissionQueue: typeof TransmissionQueue;
  readonly IndexedDbQueueStore: typeof IndexedDbQueueStore;
}

const api: SolPageApi = { SolClient, TransmissionQueue, IndexedDbQueueStore };
(globalThis as unknown as { sol: SolPageApi }).sol = api;
document.title = "sol-ready";
