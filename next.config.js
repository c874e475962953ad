/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  // better-sqlite3 is a native addon: keep it out of the server bundle (Next already lists it; explicit here).
  // esbuild (TypeScript → JavaScript for the code sandbox) ships a native binary: keep it external too.
  serverExternalPackages: ["better-sqlite3", "esbuild"],
  poweredByHeader: false,
};

export default nextConfig;
