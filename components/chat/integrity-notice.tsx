/** A failed integrity check's warning; it stays while the chat is open, so it is never shown silently as genuine. */
export function IntegrityNotice({ text }: { text: string | null }) {
  if (!text) return null;
  return (
    <div role="alert" data-testid="integrity-warning" className="mx-auto mb-2 w-full max-w-3xl px-4 sm:px-6">
      <div className="rounded-xl border border-red-200 bg-red-50 px-4 py-2.5 text-sm text-red-900">
        <p>{text}</p>
        <p className="mt-1 text-xs text-red-800">
          Hush checks every saved chat against a record only your vault key can write. What you see here may not be what you saved.
        </p>
      </div>
    </div>
  );
}
