// pdfjs-dist ships no types for its worker build; only its message handler is used.
declare module "pdfjs-dist/legacy/build/pdf.worker.mjs" {
  export const WorkerMessageHandler: unknown;
}
