/** The avatar shown beside assistant messages (docs/product.md §2). */
export function AssistantAvatar() {
  return (
    <div aria-hidden="true" className="flex h-8 w-8 shrink-0 items-center justify-center rounded-full bg-brand-600 text-white">
      <svg viewBox="0 0 24 24" className="h-4.5 w-4.5" fill="none">
        <path d="M9 11V9.5a3 3 0 0 1 6 0V11" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
        <rect x="7.5" y="11" width="9" height="7" rx="1.8" fill="currentColor" />
      </svg>
    </div>
  );
}
