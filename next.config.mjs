/** @type {import('next').NextConfig} */
const nextConfig = {
  // Lets parallel builds (one developer's e2e while another builds) use separate folders.
  distDir: process.env.HUB_NEXT_DIST_DIR || ".next",
  // Packages that load WASM or native drivers at run time stay outside the server bundle, and
  // pdfkit, which reads its font metrics (.afm files) from its own folder.
  serverExternalPackages: ["@electric-sql/pglite", "pglite-prisma-adapter", "pg", "@prisma/adapter-pg", "@prisma/client", "pdfkit"],
  // server.mjs compresses (brotli q4 / gzip level 1); Next's is gzip 6 only. See ADR 007.
  compress: false,
  poweredByHeader: false,
  reactStrictMode: true,
  typedRoutes: false,
  async headers() {
    return [
      {
        source: "/:path*",
        headers: [
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
          { key: "X-Frame-Options", value: "DENY" },
        ],
      },
      {
        // These headers replace a route's own header of the same name, so routes that send their
        // own Content-Security-Policy (the launch page's nonce and form-action, the reference
        // tool's pages, logos) are left out; each of them includes frame-ancestors 'none' itself.
        source: "/:path((?!launch/|demo-tool/|assets/).*)",
        headers: [{ key: "Content-Security-Policy", value: "frame-ancestors 'none'" }],
      },
    ];
  },
};

export default nextConfig;
