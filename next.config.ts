import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // pdf-parse 2 starts a pdf.js worker that Turbopack cannot bundle ("Setting up fake worker failed").
  // PGlite and libsodium load WebAssembly from their own package folders at run time.
  serverExternalPackages: ["pdf-parse", "@electric-sql/pglite", "pglite-prisma-adapter", "libsodium-wrappers"],
  poweredByHeader: false,
  async headers() {
    return [
      {
        source: "/:path*",
        headers: [
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "Referrer-Policy", value: "same-origin" },
          { key: "X-Frame-Options", value: "DENY" },
          { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), interest-cohort=()" },
        ],
      },
    ];
  },
};

export default nextConfig;
