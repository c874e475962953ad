import os from "node:os";

/** One IPv4 address of this machine on a network other than loopback. */
export interface LanAddress {
  interfaceName: string;
  address: string;
}

/** The machine's non-internal IPv4 addresses (os.networkInterfaces; injectable for tests), in interface order. */
export function lanAddresses(interfaces: NodeJS.Dict<os.NetworkInterfaceInfo[]> = os.networkInterfaces()): LanAddress[] {
  const found: LanAddress[] = [];
  for (const [interfaceName, infos] of Object.entries(interfaces)) {
    for (const info of infos ?? []) if (info.family === "IPv4" && !info.internal) found.push({ interfaceName, address: info.address });
  }
  return found;
}

/** The port `next start` listens on: `-p` / `--port` in `argv`, else `PORT`, else Next's 3000. */
export function serverPort(argv: readonly string[], env: Record<string, string | undefined>): number {
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    if ((arg === "-p" || arg === "--port") && argv[i + 1]) return Number(argv[i + 1]);
    if (arg.startsWith("--port=")) return Number(arg.slice("--port=".length));
  }
  const fromEnv = Number(env.PORT);
  return Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : 3000;
}

/**
 * The warning class LAN mode prints at start: which addresses the server is reachable on, what
 * a device there may reach (only the students' pages and routes), and the URL students open.
 */
export function classLanWarning(addresses: readonly LanAddress[], port: number): string {
  const lines = [
    "CLASS LAN MODE (REFLEXION_CLASS_LAN=1): this server listens on every network interface without sign-in.",
    addresses.length > 0
      ? `Reachable from the room's network at: ${addresses.map((entry) => `http://${entry.address}:${port} (${entry.interfaceName})`).join(", ")}.`
      : "No network address other than loopback was found: phones cannot reach this laptop. Join a Wi-Fi network and restart.",
    "Other devices may reach ONLY the student pages (/join, /join/<code>, /class/<id>), the class join / student / answer / reflection / stream routes and Next's static files; everything else answers them 403.",
    "Teach from this laptop itself (http://127.0.0.1:" + port + "/classes): the teacher pages only open on loopback.",
  ];
  if (addresses[0]) lines.push(`Students open: http://${addresses[0].address}:${port}/join`);
  lines.push("Use a network you trust (a classroom Wi-Fi, a phone hotspot); stop the server (Ctrl+C) when the class is over.");
  return lines.join("\n");
}

/**
 * The origins students reach this server at, for the projector's QR code and join URL: in class
 * LAN mode each LAN address with the server's port (the teacher's own page is on loopback, which
 * no phone can open); else `REFLEXION_PUBLIC_URL`'s origin when set; else none (the page's own
 * origin is right).
 */
export function classStudentOrigins(env: Record<string, string | undefined>, argv: readonly string[] = process.argv, addresses: readonly LanAddress[] = lanAddresses()): string[] {
  if (env.REFLEXION_CLASS_LAN?.trim() === "1") {
    const port = serverPort(argv, env);
    return addresses.map((entry) => `http://${entry.address}:${port}`);
  }
  const publicUrl = env.REFLEXION_PUBLIC_URL?.trim();
  if (!publicUrl) return [];
  try {
    return [new URL(publicUrl).origin];
  } catch {
    return [];
  }
}
