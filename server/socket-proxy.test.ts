import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { securityHeaders } from "./guards.mjs";
import { socketIoProxy } from "./socket-proxy.mjs";

const servers: http.Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function listen(handler: http.RequestListener): Promise<URL> {
  const server = http.createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
}

async function get(url: URL) {
  const answer = await fetch(url);
  return { status: answer.status, headers: answer.headers, body: await answer.text() };
}

describe("the /socket.io pass-through", () => {
  it("answers with the engine's answer and the pages' security headers", async () => {
    const engine = await listen((req, res) => {
      res.writeHead(200, { "content-type": "text/plain; charset=UTF-8", "x-frame-options": "SAMEORIGIN", "x-engine": "1" });
      res.end(`0{"sid":"abc"} ${req.url}`);
    });
    const web = await listen(socketIoProxy(engine, () => securityHeaders("n0nce", false)));
    const answer = await get(new URL("/socket.io/?EIO=4&transport=polling", web));
    expect(answer.status).toBe(200);
    expect(answer.body).toBe('0{"sid":"abc"} /socket.io/?EIO=4&transport=polling');
    expect(answer.headers.get("x-engine")).toBe("1");
    for (const [name, value] of Object.entries(securityHeaders("n0nce", false))) expect(answer.headers.get(name)).toBe(value);
    // The pages' header wins over one of the engine's by the same name, and is sent once.
    expect(answer.headers.get("x-frame-options")).toBe("DENY");
  });

  it("answers 502 with the security headers when the engine cannot be reached", async () => {
    const closed = await listen(() => {});
    const engine = new URL(closed);
    await new Promise((resolve) => servers.pop()!.close(resolve));
    const web = await listen(socketIoProxy(engine, () => securityHeaders("n0nce", false)));
    const answer = await get(new URL("/socket.io/?EIO=4&transport=polling", web));
    expect(answer.status).toBe(502);
    expect(answer.headers.get("x-content-type-options")).toBe("nosniff");
    expect(answer.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
  });
});
