import net from "node:net";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_API_HEAD, endpoints } from "../../protocol/endpoints";
import { buildApp } from "../app";
import { openTestStore, type TestStore } from "../testing/test-stores";
import { endpointUrl } from "./register";

/** Issue 9: a client that trickles its request body does not hold a connection open. */
describe("engine request timeout", () => {
  let store: TestStore;
  let app: FastifyInstance;
  let port: number;
  beforeAll(async () => {
    store = await openTestStore("pglite");
    app = await buildApp({ store, apiHead: "mjkj-web", requestTimeoutMs: 600 });
    await app.listen({ port: 0, host: "127.0.0.1" });
    port = (app.server.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    await app?.close();
    await store?.dispose();
  });

  it("answers 408 and closes a request whose body never finishes", async () => {
    const socket = net.connect(port, "127.0.0.1");
    let answer = "";
    socket.on("data", (chunk) => (answer += chunk.toString()));
    const closed = new Promise<number>((resolve) => socket.on("close", () => resolve(Date.now())));
    const started = Date.now();
    // Written by hand on a socket: the request's head arrives, its body never finishes.
    const url = endpointUrl(DEFAULT_API_HEAD, endpoints.register);
    socket.write(`POST ${url} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`);
    const trickle = setInterval(() => socket.writable && socket.write(" "), 100);
    const at = await closed;
    clearInterval(trickle);
    expect(at - started).toBeLessThan(5_000);
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
  });
});
