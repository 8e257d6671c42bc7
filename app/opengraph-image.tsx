import { ImageResponse } from "next/og";
import { siteConfig } from "@/config/site";
import { shareImage } from "@/lib/server/seo";

export const alt = shareImage.alt;
export const size = shareImage.size;
export const contentType = "image/png";

/**
 * The sharing image (Open Graph and, through app/twitter-image.tsx, Twitter), drawn at build time with
 * next/og's bundled font: no font or image is fetched from anywhere.
 */
export default function OpengraphImage() {
  return new ImageResponse(
    (
      <div
        style={{
          width: "100%",
          height: "100%",
          display: "flex",
          flexDirection: "column",
          justifyContent: "space-between",
          padding: "72px 80px",
          background: "linear-gradient(160deg, #ffffff 0%, #f3f1ff 55%, #d5ceff 100%)",
          color: "#111318",
        }}
      >
        <div style={{ display: "flex", alignItems: "center", gap: 20 }}>
          <svg width="64" height="64" viewBox="0 0 24 24" fill="none">
            <rect x="3" y="3" width="18" height="18" rx="6" fill="#6425f0" />
            <path d="M9 11V9.5a3 3 0 0 1 6 0V11" stroke="white" strokeWidth="1.6" strokeLinecap="round" />
            <rect x="8" y="11" width="8" height="6" rx="1.6" fill="white" />
          </svg>
          <div style={{ fontSize: 44, letterSpacing: -1 }}>{siteConfig.name}</div>
        </div>
        <div style={{ display: "flex", flexDirection: "column" }}>
          <div style={{ fontSize: 120, letterSpacing: -5, lineHeight: 1 }}>Chat Freely</div>
          <div style={{ marginTop: 28, fontSize: 40, color: "#434a5c", maxWidth: 900, lineHeight: 1.3 }}>
            Private, encrypted AI chat. No training on your data, no sharing, no trackers.
          </div>
        </div>
        <div style={{ display: "flex", gap: 16 }}>
          {["Encrypted with your own key", "Based in New Zealand and Australia"].map((t) => (
            <div
              key={t}
              style={{
                display: "flex",
                padding: "12px 24px",
                borderRadius: 999,
                border: "2px solid #b7a7ff",
                background: "rgba(255,255,255,0.7)",
                color: "#4616b0",
                fontSize: 26,
              }}
            >
              {t}
            </div>
          ))}
        </div>
      </div>
    ),
    size,
  );
}
