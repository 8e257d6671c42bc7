/**
 * Which files the chat reads, all in the browser like PDFs
 * PDFs (lib/browser/pdf), plain text and source files (./read-text.ts), Word
 * documents (.docx, ./docx) and images for models that read them (lib/shared/llm/models.ts `vision`). Anything
 * else gets docs/product.md §5's sentence. Browser-safe and dependency-free.
 */

export type FileKind = "pdf" | "text" | "docx" | "image";

/** Extensions read as UTF-8 text: prose, data and source code. */
export const TEXT_EXTENSIONS = [
  "txt", "text", "md", "markdown", "csv", "tsv", "json", "jsonl", "ndjson", "log", "xml", "yaml", "yml", "toml", "ini", "cfg", "conf", "env",
  "html", "htm", "css", "scss", "sass", "less", "js", "mjs", "cjs", "jsx", "ts", "mts", "cts", "tsx", "vue", "svelte",
  "py", "rb", "php", "java", "kt", "kts", "scala", "go", "rs", "c", "h", "cc", "cpp", "cxx", "hpp", "cs", "swift", "m", "mm",
  "sh", "bash", "zsh", "fish", "ps1", "bat", "sql", "r", "lua", "pl", "pm", "dart", "ex", "exs", "erl", "hs", "clj", "el", "tex", "rst", "adoc", "srt", "vtt", "gradle", "dockerfile", "makefile",
] as const;

/** Image types the vision models take. */
export const IMAGE_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp"] as const;
const IMAGE_EXTENSIONS = ["png", "jpg", "jpeg", "gif", "webp"];

const DOCX_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
const TEXT_SET = new Set<string>(TEXT_EXTENSIONS);

function extensionOf(name: string): string {
  const lower = name.toLowerCase();
  const dot = lower.lastIndexOf(".");
  // "Dockerfile", "Makefile": no extension, the name is the type.
  return dot === -1 ? lower : lower.slice(dot + 1);
}

/**
 * The kind of a chosen file from its name and MIME type, or null when Hush does not read it. The name
 * decides first (browsers give many source files no type, or a wrong one); a PDF's header and a Word
 * document's zip structure are checked again when read.
 */
export function fileKind(file: { name: string; type: string }): FileKind | null {
  const ext = extensionOf(file.name);
  const type = file.type.toLowerCase();
  if (ext === "pdf" || type === "application/pdf") return "pdf";
  if (ext === "docx" || type === DOCX_TYPE) return "docx";
  if (IMAGE_EXTENSIONS.includes(ext) || (IMAGE_TYPES as readonly string[]).includes(type)) return "image";
  if (TEXT_SET.has(ext) || type.startsWith("text/") || type === "application/json") return "text";
  return null;
}

/** The file input's `accept` list for a model that reads text only: every extension above but images. */
export const ACCEPT = [".pdf", ".docx", ...TEXT_EXTENSIONS.map((e) => `.${e}`), "application/pdf", "text/*"].join(",");

/** The `accept` list for a model that reads images (lib/shared/llm/models.ts `vision`): images too. */
export const ACCEPT_WITH_IMAGES = [ACCEPT, ...IMAGE_EXTENSIONS.map((e) => `.${e}`), ...IMAGE_TYPES].join(",");

/** The picker's `accept` list for a model. */
export function acceptFor(vision: boolean): string {
  return vision ? ACCEPT_WITH_IMAGES : ACCEPT;
}
