/**
 * A page's bytes as text (docs/issues.md #51), apart from ./markdown.ts so that the request thread, which decodes
 * plain text, does not load the DOM and Markdown packages only the extraction worker needs.
 */

/** The bytes as text in the Content-Type's charset (UTF-8 when none is named or it is unknown). */
export function decodePage(bytes: Uint8Array, contentType: string): string {
  const charset = /;\s*charset="?([^";\s]+)/i.exec(contentType)?.[1];
  try {
    return new TextDecoder(charset ?? "utf-8").decode(bytes);
  } catch {
    return new TextDecoder("utf-8").decode(bytes);
  }
}
