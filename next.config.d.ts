/** Types of next.config.js for tests that read it (tests/security). */
import type { NextConfig } from "next";
declare const nextConfig: NextConfig;
export default nextConfig;
