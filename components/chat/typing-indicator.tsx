/** Three pulsing dots shown while the first words of the answer are on their way (docs/product.md §2). */
export function TypingIndicator() {
  return (
    <div role="status" aria-label="Assistant is typing" className="flex items-center gap-1 py-2">
      {[0, 150, 300].map((delay) => (
        <span
          key={delay}
          className="h-2 w-2 animate-bounce rounded-full bg-ink-400"
          style={{ animationDelay: `${delay}ms` }}
        />
      ))}
    </div>
  );
}
