import { DEFAULT_CSP, OWN_CSP_PREFIXES, SECURITY_HEADERS } from "./lib/server/http/security-headers.mjs";

/** @type {import('next').NextConfig} */
const nextConfig = {
  // Lets parallel builds (one developer's e2e while another builds) use separate folders.
  distDir: process.env.HUB_NEXT_DIST_DIR || ".next",
  // Packages that load WASM or native drivers at run time stay outside the server bundle, and
  // pdfkit, which reads its font metrics (.afm files) from its own folder. prom-client and the
  // OpenTelemetry API keep one copy, shared with server.mjs, which loads them without the bundle.
  serverExternalPackages: ["@electric-sql/pglite", "pglite-prisma-adapter", "pg", "@prisma/adapter-pg", "@prisma/client", "pdfkit", "prom-client", "@opentelemetry/api"],
  // server.mjs compresses (brotli q4 / gzip level 1); Next's is gzip 6 only. See ADR 007.
  compress: false,
  poweredByHeader: false,
  reactStrictMode: true,
  typedRoutes: false,
  // npm test typechecks the same sources, with Next's route validator, just before it builds
  // (scripts/test.mjs); every other build (npm start's) checks the types itself.
  typescript: { ignoreBuildErrors: process.env.HUB_BUILD_TYPECHECKED === "1" },
  async headers() {
    return [
      { source: "/:path*", headers: SECURITY_HEADERS },
      {
        // These headers replace a route's own header of the same name, so routes that send their
        // own Content-Security-Policy are left out (lib/server/http/security-headers.mjs).
        source: `/:path((?!${OWN_CSP_PREFIXES.join("|")}).*)`,
        headers: [DEFAULT_CSP],
      },
      // The tab's icon (app/icon.svg): pages link it with its content's hash in the query, so a
      // browser keeps it a week instead of asking again on every page (Next sends max-age=0).
      { source: "/(icon.svg|favicon.ico)", headers: [{ key: "Cache-Control", value: "public, max-age=604800" }] },
    ];
  },
  // A client that asks for /favicon.ico without reading the page (a link preview, an old
  // browser) gets the same icon, not the not-found page rendered for it.
  async rewrites() {
    return [{ source: "/favicon.ico", destination: "/icon.svg" }];
  },
};

export default nextConfig;
