import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import { bindRefusal } from "@/lib/server/bind-rule";
import { classLanWarning, classStudentOrigins, lanAddresses, serverPort } from "@/lib/server/class-lan-warning";
import { installPeerStamp, isLanPhone, isStudentSurface, lanAccess, PEER_HEADER } from "@/lib/server/lan-peer";

const lan = (peer: string | null, pathname: string, method = "GET") => lanAccess({ lanMode: true, peer, pathname, method });

describe("class LAN mode", () => {
  it("lets a loopback peer reach everything, and any other peer only the students' surfaces", () => {
    for (const peer of ["127.0.0.1", "::1", "::ffff:127.0.0.1"]) {
      expect(lan(peer, "/classes/cls_1"), peer).toBe("allow");
      expect(lan(peer, "/api/classes/cls_1/step", "POST"), peer).toBe("allow");
    }
    for (const peer of ["192.168.1.23", "::ffff:10.0.0.7", null]) {
      for (const [pathname, method] of [
        ["/join", "GET"],
        ["/join/ABC234", "GET"],
        ["/class/cls_1", "GET"],
        ["/api/classes/join", "POST"],
        ["/api/classes/by-code/ABC234", "GET"],
        ["/api/classes/cls_1/student", "GET"],
        ["/api/classes/cls_1/stream", "GET"],
        ["/api/classes/cls_1/answers", "POST"],
        ["/api/classes/cls_1/reflections", "POST"],
        ["/_next/static/chunks/app.js", "GET"],
        ["/api/me", "GET"],
        ["/api/auth/get-session", "GET"],
      ] as const) {
        expect(lan(peer, pathname, method), `${peer} ${method} ${pathname}`).toBe("allow");
      }
      for (const [pathname, method] of [
        ["/", "GET"],
        ["/classes", "GET"],
        ["/classes/cls_1", "GET"],
        ["/runs/r1", "GET"],
        ["/settings", "GET"],
        ["/api/classes", "POST"],
        ["/api/classes/cls_1", "GET"],
        ["/api/classes/cls_1/step", "POST"],
        ["/api/classes/cls_1/reveal", "POST"],
        ["/api/classes/cls_1/forks", "POST"],
        ["/api/classes/cls_1/end", "POST"],
        ["/api/classes/cls_1/reset", "POST"],
        ["/api/classes/join", "GET"],
        ["/api/classes/cls_1/answers", "GET"],
        ["/api/runs", "POST"],
        ["/api/runs/r1/events", "GET"],
        ["/join/ABC234/extra", "GET"],
        ["/join", "POST"],
        ["/api/auth/sign-in/email", "POST"],
        ["/api/health", "GET"],
      ] as const) {
        expect(lan(peer, pathname, method), `${peer} ${method} ${pathname}`).toBe("refuse");
      }
    }
    expect(lanAccess({ lanMode: false, peer: "192.168.1.23", pathname: "/settings", method: "GET" })).toBe("allow");
    expect(isStudentSurface("/api/classes/cls_1/stream", "HEAD")).toBe(true);
    expect([isLanPhone(true, "10.0.0.7"), isLanPhone(true, null), isLanPhone(true, "127.0.0.1"), isLanPhone(false, "10.0.0.7")]).toEqual([true, true, false, false]);
  });

  it("stamps each request with the socket's address, overwriting a client's own header", () => {
    class FakeServer extends EventEmitter {}
    installPeerStamp(FakeServer);
    const server = new FakeServer();
    const seen: Array<string | undefined> = [];
    server.on("request", (req: { headers: Record<string, string> }) => seen.push(req.headers[PEER_HEADER]));
    server.emit("request", { headers: { [PEER_HEADER]: "127.0.0.1" }, socket: { remoteAddress: "192.168.1.23" } });
    server.emit("request", { headers: { [PEER_HEADER]: "127.0.0.1" }, socket: {} });
    server.emit("other", { headers: {} });
    expect(seen).toEqual(["192.168.1.23", undefined]);
  });

  it("lets the server bind every interface in LAN mode, and says where and what", () => {
    expect(bindRefusal("0.0.0.0", "off", { REFLEXION_CLASS_LAN: "1" })).toBeNull();
    expect(bindRefusal("0.0.0.0", "off", { REFLEXION_CLASS_LAN: "0" })).not.toBeNull();
    const addresses = lanAddresses({
      lo: [{ address: "127.0.0.1", family: "IPv4", internal: true, netmask: "255.0.0.0", mac: "00:00:00:00:00:00", cidr: "127.0.0.1/8" }],
      wlan0: [
        { address: "192.168.1.20", family: "IPv4", internal: false, netmask: "255.255.255.0", mac: "aa:bb:cc:dd:ee:ff", cidr: "192.168.1.20/24" },
        { address: "fe80::1", family: "IPv6", internal: false, netmask: "ffff::", mac: "aa:bb:cc:dd:ee:ff", cidr: "fe80::1/64", scopeid: 2 },
      ],
    });
    expect(addresses).toEqual([{ interfaceName: "wlan0", address: "192.168.1.20" }]);
    expect(serverPort(["next", "start", "-p", "3501"], {})).toBe(3501);
    expect(serverPort(["next", "start"], { PORT: "3502" })).toBe(3502);
    expect(serverPort(["next", "start"], {})).toBe(3000);
    const warning = classLanWarning(addresses, 3501);
    expect(warning).toContain("http://192.168.1.20:3501 (wlan0)");
    expect(warning).toContain("Students open: http://192.168.1.20:3501/join");
    expect(warning).toMatch(/ONLY the student pages/);
    expect(classLanWarning([], 3501)).toMatch(/phones cannot reach this laptop/);
    // The projector's QR code: the LAN address in LAN mode (the teacher's page is on loopback).
    expect(classStudentOrigins({ REFLEXION_CLASS_LAN: "1" }, ["next", "start", "-p", "3501"], addresses)).toEqual(["http://192.168.1.20:3501"]);
    expect(classStudentOrigins({ REFLEXION_PUBLIC_URL: "https://lab.example/x" }, [], addresses)).toEqual(["https://lab.example"]);
    expect(classStudentOrigins({}, [], addresses)).toEqual([]);
  });
});
