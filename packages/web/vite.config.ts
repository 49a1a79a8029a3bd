import { fileURLToPath } from "node:url";
import preact from "@preact/preset-vite";
import { defineConfig } from "vite";

const src = (pkg: string) => fileURLToPath(new URL(`../${pkg}/src/index.ts`, import.meta.url));

export default defineConfig({
  plugins: [preact()],
  resolve: { alias: { "@solserver/core": src("core"), "@solserver/client": src("client") } },
  build: { outDir: "dist", emptyOutDir: true, sourcemap: true },
});
