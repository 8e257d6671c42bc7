import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";
import { readdirSync } from "node:fs";

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

/**
 * components/ in rooms (docs/architecture.md): the shared folders below are imported by all and import no feature;
 * every other folder is a feature and imports no other feature (what one shows of another is handed in by app/).
 */
const sharedComponents = ["confidential", "message", "theme", "ui"];
const featureComponents = readdirSync(new URL("./components", import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory() && !sharedComponents.includes(d.name))
  .map((d) => d.name);
const componentRooms = {
  files: ["components/**/*.{ts,tsx}"],
  rules: {
    "import/no-restricted-paths": [
      "error",
      {
        zones: [
          ...featureComponents.map((f) => ({
            target: `./components/${f}`,
            from: featureComponents.filter((o) => o !== f).map((o) => `./components/${o}`),
            message: "A feature folder of components/ imports no other feature: pass the piece in from app/, or move it to a shared folder (docs/architecture.md).",
          })),
          {
            target: sharedComponents.map((s) => `./components/${s}`),
            from: featureComponents.map((f) => `./components/${f}`),
            message: "A shared folder of components/ imports no feature folder (docs/architecture.md).",
          },
        ],
      },
    ],
  },
};

/**
 * `as never` and `as unknown as` switch the type check off, so a body could skip the typed contract. A cast that is
 * truly needed says why in a comment above its eslint-disable-next-line.
 */
const CAST = ":matches(TSAsExpression, TSTypeAssertion)";
const noTypeEscape = {
  files: ["lib/**/*.{ts,tsx}", "components/**/*.{ts,tsx}"],
  rules: {
    "no-restricted-syntax": [
      "error",
      { selector: `${CAST}[typeAnnotation.type='TSNeverKeyword']`, message: "No `as never`: give the value its real type (the contract's body types for API calls)." },
      { selector: `${CAST} > ${CAST}.expression[typeAnnotation.type='TSUnknownKeyword']`, message: "No `as unknown as`: give the value its real type, or say why in a comment and disable this line." },
    ],
  },
};

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  boundary,
  componentRooms,
  noTypeEscape,
  globalIgnores([".next/**", "bench/floor-app/.next/**", "node_modules/**", ".data/**", "lib/server/db/generated/**", "test-results/**", "playwright-report/**", "next-env.d.ts", "public/pyodide/**"]),
]);
