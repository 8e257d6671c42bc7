import OpengraphImage, { alt as ogAlt } from "./opengraph-image";
import { shareImage } from "@/lib/server/seo";

// Route segment config must be declared here, not re-exported, for Next to read it statically.
export const alt = ogAlt;
export const size = shareImage.size;
export const contentType = "image/png";

/** The Twitter card image: the same picture as the Open Graph image. */
export default function TwitterImage() {
  return OpengraphImage();
}
