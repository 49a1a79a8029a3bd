import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const src = (pkg: string) => fileURLToPath(new URL(`./packages/${pkg}/src/index.ts`, import.meta.url));

export default defineConfig({
  resolve: {
    alias: {
      // Subpath entries first: an alias also matches `<key>/...`, so the package key would shadow them.
      "@solserver/client/node": fileURLToPath(
        new URL("./packages/client/src/node/index.ts", import.meta.url),
      ),
      "@solserver/core": src("core"),
      "@solserver/client": src("client"),
      "@solserver/server": src("server"),
      "@solserver/harness": src("harness"),
    },
  },
  test: {
    include: ["packages/*/test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
