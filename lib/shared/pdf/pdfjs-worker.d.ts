// pdfjs-dist ships no types for its worker build; only its message handler is used (lib/browser/pdf/pdf.worker.ts,
// lib/server/pdf/pdf.worker.ts).
declare module "pdfjs-dist/legacy/build/pdf.worker.mjs" {
  export const WorkerMessageHandler: unknown;
}
