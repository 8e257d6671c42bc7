export type FileKind = "pdf" | "text" | "docx" | "image";

const TEXT_EXTENSIONS = [
  "txt", "text", "md", "markdown", "csv", "tsv", "json", "jsonl", "ndjson", "log", "xml", "yaml", "yml", "toml", "ini", "cfg", "conf", "env",
  "html", "htm", "css", "scss", "sass", "less", "js", "mjs", "cjs", "jsx", "ts", "mts", "cts", "tsx", "vue", "svelte",
  "py", "rb", "php", "java", "kt", "kts", "scala", "go", "rs", "c", "h", "cc", "cpp", "cxx", "hpp", "cs", "swift", "m", "mm",
  "sh", "bash", "zsh", "fish", "ps1", "bat", "sql", "r", "lua", "pl", "pm", "dart", "ex", "exs", "erl", "hs", "clj", "el", "tex", "rst", "adoc", "srt", "vtt", "gradle", "dockerfile", "makefile",
] as const;

const IMAGE_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp"] as const;
const IMAGE_EXTENSIONS = ["png", "jpg", "jpeg", "gif", "webp"];

const DOCX_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
const TEXT_SET = new Set<string>(TEXT_EXTENSIONS);

function extensionOf(name: string): string {
  const lower = name.toLowerCase();
  const dot = lower.lastIndexOf(".");
  // "Dockerfile", "Makefile": no extension, the name is the type.
  return dot === -1 ? lower : lower.slice(dot + 1);
}

/** The kind of a chosen file by its name first (browsers give many source files no type), or null. */
export function fileKind(file: { name: string; type: string }): FileKind | null {
  const ext = extensionOf(file.name);
  const type = file.type.toLowerCase();
  if (ext === "pdf" || type === "application/pdf") return "pdf";
  if (ext === "docx" || type === DOCX_TYPE) return "docx";
  if (IMAGE_EXTENSIONS.includes(ext) || (IMAGE_TYPES as readonly string[]).includes(type)) return "image";
  if (TEXT_SET.has(ext) || type.startsWith("text/") || type === "application/json") return "text";
  return null;
}

export const ACCEPT = [".pdf", ".docx", ...TEXT_EXTENSIONS.map((e) => `.${e}`), "application/pdf", "text/*"].join(",");

const ACCEPT_WITH_IMAGES = [ACCEPT, ...IMAGE_EXTENSIONS.map((e) => `.${e}`), ...IMAGE_TYPES].join(",");

export function acceptFor(vision: boolean): string {
  return vision ? ACCEPT_WITH_IMAGES : ACCEPT;
}
