/**
 * The Pyodide files the browser's Python worker loads (docs/issues.md #51 "Engine"), served from Hush's origin under
 * PYODIDE_URL_PATH (scripts/copy-pyodide.mjs copies them from the npm package) and fetched with these SHA-384
 * digests as their integrity. Written by `node scripts/copy-pyodide.mjs --write`; tests/unit/run-code.test.ts
 * checks them against the installed package.
 */

/** The pinned pyodide package's version (package.json). */
export const PYODIDE_VERSION = "314.0.8";

/** Where the files are served: `/pyodide/<version>/`. */
export const PYODIDE_URL_PATH = `/pyodide/${PYODIDE_VERSION}/`;

/** Each file's `sha384-<base64>`, by name. */
export const PYODIDE_FILES = {
  "pyodide.mjs": "sha384-VR+eYp8LZKGhhQ7Nql3TONJIMizM0VRxz87k6V7IyuQHElicjy7ULmkOuB2LFR3b",
  "pyodide.asm.mjs": "sha384-zZV4ZBUhsbFzcmaHqwfipWI/BS8YH7Duesu1Rrtyx1HRqFAyz+Mt/HRiMtNyWdwU",
  "pyodide.asm.wasm": "sha384-L3e25SSwmf8Q0I8qcgGD/PNkK1wyivO8lWFSko3xXQZ8uLNcYkZXJlX8LU3oVH/o",
  "python_stdlib.zip": "sha384-ShW1Tjb4ytDLumQGuwRa/PTLxHcN6agBzp2wIRZSJNK8tEt2QMRDnG69N58KhHqM",
  "pyodide-lock.json": "sha384-o8SQQvpVlZnOl04+3dFTJipKxul9GbViVusA379wlOrfHSgxbzt0yPiqCTxOiYES",
} as const satisfies Record<string, string>;

export type PyodideFile = keyof typeof PYODIDE_FILES;
