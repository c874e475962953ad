import { describe, expect, it } from "vitest";
import { ALL_INTERFACES, bindRefusal, isLoopbackHost, serverBindHost } from "@/lib/server/bind-rule";

describe("bind rule", () => {
  it("tells loopback addresses from the others", () => {
    for (const host of ["127.0.0.1", "127.8.9.10", "::1", "[::1]", "localhost", "LOCALHOST", "app.localhost", "::ffff:127.0.0.1", "0:0:0:0:0:0:0:1"]) expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ["0.0.0.0", "::", "192.168.1.20", "10.0.0.5", "playground.lab.example", "128.0.0.1", "::ffff:10.0.0.1"]) expect(isLoopbackHost(host), host).toBe(false);
  });

  it("reads the host from `next start -H`, `--hostname`, the dev child's origin, else every interface", () => {
    expect(serverBindHost(["node", "next", "start", "-H", "127.0.0.1"], {})).toBe("127.0.0.1");
    expect(serverBindHost(["node", "next", "start", "--hostname", "10.0.0.5"], {})).toBe("10.0.0.5");
    expect(serverBindHost(["node", "next", "start", "--hostname=::1"], {})).toBe("::1");
    expect(serverBindHost(["node", "next", "start", "-p", "3000"], {})).toBe(ALL_INTERFACES);
    expect(serverBindHost(["node", "start-server.js"], { NEXT_PRIVATE_WORKER: "1", __NEXT_PRIVATE_ORIGIN: "http://192.168.1.20:3000" })).toBe("192.168.1.20");
    expect(serverBindHost(["node", "start-server.js"], { __NEXT_PRIVATE_ORIGIN: "http://localhost:3000" })).toBe(ALL_INTERFACES);
  });

  it("refuses a non-loopback address without sign-in unless REFLEXION_ALLOW_OPEN_NETWORK=1", () => {
    expect(bindRefusal("127.0.0.1", "off", {})).toBeNull();
    expect(bindRefusal("0.0.0.0", "off", {})).toMatch(/^it would listen on every network interface without sign-in/);
    expect(bindRefusal("192.168.1.20", "off", {})).toContain("listen on 192.168.1.20 without sign-in");
    expect(bindRefusal("192.168.1.20", "off", { REFLEXION_ALLOW_OPEN_NETWORK: "1" })).toBeNull();
    expect(bindRefusal("192.168.1.20", "off", { REFLEXION_ALLOW_OPEN_NETWORK: "yes" })).not.toBeNull();
    expect(bindRefusal("0.0.0.0", "on", {})).toBeNull();
  });
});
