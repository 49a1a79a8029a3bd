import { runStoreContract } from "./store-contract.js";

runStoreContract("sqlite::memory:", async () => ({ url: "sqlite::memory:", drop: async () => {} }), {
  sharedUrl: false,
});
