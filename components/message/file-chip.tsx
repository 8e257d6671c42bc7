function kindLabel(name: string): string {
  const ext = /\.([a-z0-9]{1,5})$/i.exec(name)?.[1];
  return ext ? ext.toUpperCase() : "FILE";
}

/** An attached file as a compact card (docs/product.md §4); `thumbnail`: an image's data URL. */
export function FileChip({ name, onRemove, reading, thumbnail }: { name: string; onRemove?: () => void; reading?: boolean; thumbnail?: string }) {
  return (
    <div className="inline-flex max-w-full items-center gap-2 rounded-xl border border-ink-200 bg-white px-3 py-2 text-sm text-ink-800 shadow-sm">
      {thumbnail ? (
        // eslint-disable-next-line @next/next/no-img-element -- a data URL made in this browser; next/image cannot optimise it
        <img src={thumbnail} alt={`Attached image ${name}`} data-testid="image-thumbnail" className="h-12 w-12 shrink-0 rounded-lg border border-ink-100 object-cover" />
      ) : (
        <svg aria-hidden="true" viewBox="0 0 24 24" className="h-5 w-5 shrink-0 text-red-600" fill="none" stroke="currentColor" strokeWidth="1.6">
          <path d="M14 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8z" />
          <path d="M14 3v5h5" />
        </svg>
      )}
      <span className="truncate" title={name}>
        {name}
      </span>
      <span className="shrink-0 rounded bg-ink-100 px-1.5 py-0.5 text-[10px] font-semibold uppercase text-ink-600">{reading ? "Reading…" : kindLabel(name)}</span>
      {onRemove && (
        <button
          type="button"
          onClick={onRemove}
          aria-label={`Remove ${name}`}
          className="-mr-1 ml-1 inline-flex h-6 w-6 shrink-0 items-center justify-center rounded-full text-ink-500 hover:bg-ink-100 hover:text-ink-900"
        >
          <svg aria-hidden="true" viewBox="0 0 24 24" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
            <path d="M6 6l12 12M18 6L6 18" />
          </svg>
        </button>
      )}
    </div>
  );
}
