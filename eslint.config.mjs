import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

/**
 * Where code runs is a folder (docs/architecture.md): lib/browser may see plaintext, lib/server sees
 * ciphertext (or a standard model's turn), lib/shared is imported by both and so imports neither.
 * An import across that line fails `npm run lint`, type-only imports included.
 */
const boundary = {
  files: ["lib/**/*.{ts,tsx,mjs}"],
  rules: {
    "import/no-restricted-paths": [
      "error",
      {
        zones: [
          { target: "./lib/server", from: "./lib/browser", message: "lib/server must not import browser code (docs/architecture.md)." },
          { target: "./lib/browser", from: "./lib/server", message: "lib/browser must not import server code (docs/architecture.md)." },
          { target: "./lib/shared", from: ["./lib/server", "./lib/browser"], message: "lib/shared is imported by both sides and imports neither (docs/architecture.md)." },
          { target: "./lib", from: ["./components", "./app", "./dev"], message: "lib does not import app, components or development tools." },
        ],
      },
    ],
  },
};

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  boundary,
  globalIgnores([".next/**", "bench/floor-app/.next/**", "node_modules/**", ".data/**", "lib/server/db/generated/**", "test-results/**", "playwright-report/**", "next-env.d.ts", "public/pyodide/**"]),
]);
