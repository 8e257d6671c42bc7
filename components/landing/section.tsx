/** Page width and side padding shared by every public section. */
export const container = "mx-auto w-full max-w-6xl px-4 sm:px-6";

/** A section title with its lead paragraph; `id` labels the enclosing section. */
export function SectionHeader({
  id,
  title,
  lead,
  center = false,
}: {
  id: string;
  title: string;
  lead?: string;
  center?: boolean;
}) {
  return (
    <div className={center ? "mx-auto max-w-2xl text-center" : "max-w-2xl"}>
      <h2 id={id} className="text-3xl font-semibold tracking-tight text-ink-950 sm:text-4xl">
        {title}
      </h2>
      {lead && <p className="mt-4 text-lg leading-8 text-ink-600">{lead}</p>}
    </div>
  );
}
