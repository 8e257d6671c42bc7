/** A section while it loads: "Loading…" for screen readers and a skeleton of `lines` bars. */
export function LoadingBlock({ lines = 2, className = "" }: { lines?: number; className?: string }) {
  return (
    <div role="status" aria-busy="true" data-testid="loading-block" className={className}>
      <span className="sr-only">Loading…</span>
      <div aria-hidden="true" className="space-y-2 motion-safe:animate-pulse">
        {Array.from({ length: lines }, (_, i) => (
          <div key={i} className={`h-4 rounded-md bg-ink-200 ${i === lines - 1 && lines > 1 ? "w-2/3" : "w-full"}`} />
        ))}
      </div>
    </div>
  );
}
