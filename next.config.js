import { imageContentSecurityPolicy, securityHeaders } from "./lib/security/content-security-policy.js";

/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  // esbuild (TypeScript → JavaScript for the code sandbox) ships a native binary: keep it external too.
  // gpt-tokenizer (prompt token counts) is large: one copy in node_modules instead of one per server route bundle.
  serverExternalPackages: ["esbuild", "gpt-tokenizer"],
  poweredByHeader: false,
  // The build type-checks the app only (tsconfig.build.json): a type error in a test must not stop `npm run playground`.
  typescript: { tsconfigPath: "tsconfig.build.json" },
  // Content-Security-Policy and companions on every response (lib/security/content-security-policy.js, decision 0017);
  // the help pages' images (files of docs/, SVG among them) get the script-free image policy instead: for the same
  // key a later rule overrides an earlier one.
  async headers() {
    return [
      { source: "/:path*", headers: securityHeaders({ dev: process.env.NODE_ENV === "development" }) },
      { source: "/help/images/:path*", headers: [{ key: "Content-Security-Policy", value: imageContentSecurityPolicy() }] },
    ];
  },
};

export default nextConfig;
