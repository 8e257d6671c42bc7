import { createRequire } from "node:module";

/** The native module pdf.js's Node build requires when it is imported (pdfjs-dist 5.4.296, legacy/build/pdf.mjs). */
const CANVAS = "@napi-rs/canvas";

/**
 * Keep pdf.js from loading its Node canvas in this thread. pdfjs-dist's Node build requires `@napi-rs/canvas`
 * (skia: 15–25 MB more resident in the PDF worker, measured with bench/pdf-bomb.ts) when it is imported, for rendering, which text extraction never does.
 * Resolving that one name fails here, which pdf.js handles (it only warns), and the one class pdf.js constructs
 * while it loads (`DOMMatrix`, for a constant of its canvas code) gets an empty stand-in: any real use of it
 * fails the read as unreadable instead of drawing wrongly. Call before pdf-parse or pdfjs-dist is imported;
 * worker threads have a module loader of their own, so this changes nothing on the request thread.
 */
export function withoutCanvas(): void {
  const Module = createRequire(import.meta.url)("node:module") as { _resolveFilename: (request: string, ...rest: unknown[]) => string };
  const resolve = Module._resolveFilename;
  Module._resolveFilename = function resolveFilename(request: string, ...rest: unknown[]): string {
    if (request === CANVAS || request.startsWith(`${CANVAS}/`)) throw Object.assign(new Error(`${CANVAS} is not loaded here`), { code: "MODULE_NOT_FOUND" });
    return resolve.call(this, request, ...rest);
  };
  const g = globalThis as { DOMMatrix?: unknown };
  g.DOMMatrix ??= class DOMMatrixUnavailable {};
}
