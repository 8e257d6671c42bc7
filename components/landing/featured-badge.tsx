import type { LandingContent } from "@/content/landing";

/** The featured-on badge (docs/product.md §2), our own file so the page requests nothing from the directory. */
export function FeaturedBadge({ featured }: { featured: LandingContent["featured"] }) {
  const { image } = featured;
  return (
    <div className="mt-2 flex justify-center px-4 sm:mt-4">
      <a
        href={featured.href}
        rel="noopener noreferrer"
        className="inline-block rounded-xl opacity-90 transition-opacity hover:opacity-100"
      >
        {/* A plain img: next/image would add client JavaScript for a fixed-size SVG. */}
        {/* eslint-disable-next-line @next/next/no-img-element */}
        <img src={image.src} alt={image.alt} width={image.width} height={image.height} loading="lazy" decoding="async" />
      </a>
    </div>
  );
}
