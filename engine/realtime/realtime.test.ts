import { createServer, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { io as connect, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { topics } from "../../protocol/realtime";
import { attachRealtime, type Realtime } from "./realtime";
import { TicketSigner } from "./tickets";

describe("real-time subscriptions over a real socket", () => {
  let server: HttpServer;
  let realtime: Realtime;
  let client: Socket;
  const tickets = new TicketSigner("test-secret");

  beforeAll(async () => {
    server = createServer();
    realtime = attachRealtime(server, tickets);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    client = connect(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, { path: "/socket.io", transports: ["websocket"] });
    await new Promise<void>((resolve) => client.on("connect", () => resolve()));
  });
  afterAll(async () => {
    client?.close();
    await realtime?.io.close();
  });

  const subscribe = (request: unknown) => new Promise<boolean>((resolve) => client.emit("subscribe", request, resolve));

  it("lets anyone follow a public topic and refuses names that are no topic", async () => {
    expect(await subscribe(topics.depth("BTC/USDT"))).toBe(true);
    expect(await subscribe("depth_BTC")).toBe(false);
    expect(await subscribe({ topic: "kline_BTC_USDT_2m" })).toBe(false);
  });

  it("lets only the member a ticket names follow that member's topic", async () => {
    expect(await subscribe(topics.refresh("7"))).toBe(false);
    expect(await subscribe({ topic: topics.refresh("7"), ticket: tickets.issue("8", Date.now()).ticket })).toBe(false);
    expect(await subscribe({ topic: topics.refresh("7"), ticket: new TicketSigner("other").issue("7", Date.now()).ticket })).toBe(false);
    expect(await subscribe({ topic: topics.refresh("7"), ticket: tickets.issue("7", Date.now() - 10 * 60_000).ticket })).toBe(false);
    expect(await subscribe({ topic: topics.refresh("7"), ticket: tickets.issue("7", Date.now()).ticket })).toBe(true);
  });

  it("pushes a topic's payload to its followers only", async () => {
    const received: unknown[] = [];
    client.on("message", (message) => received.push(message));
    realtime.publish(topics.trade("ETH/USDT"), { symbol: "ETH/USDT", trades: [] });
    const payload = { symbols: ["BTC/USDT"], orders: true, balances: true };
    realtime.publish(topics.refresh("7"), payload);
    await expect.poll(() => received.length).toBe(1);
    expect(received).toEqual([{ topic: "refresh_7", data: payload }]);
  });

  it("ends a member's following when their sessions end, and refuses the tickets issued before", async () => {
    const received: unknown[] = [];
    client.on("message", (message) => received.push(message));
    const before = tickets.issue("9", Date.now() - 1).ticket;
    expect(await subscribe({ topic: topics.refresh("9"), ticket: before })).toBe(true);
    realtime.endMember("9", Date.now());
    await expect.poll(() => realtime.io.of("/").adapter.rooms.has(topics.refresh("9"))).toBe(false);
    realtime.publish(topics.refresh("9"), { symbols: [], orders: true, balances: true });
    expect(await subscribe({ topic: topics.refresh("9"), ticket: before })).toBe(false);
    // A ticket issued after the end (a new login) follows again.
    expect(await subscribe({ topic: topics.refresh("9"), ticket: tickets.issue("9", Date.now() + 1).ticket })).toBe(true);
    realtime.publish(topics.refresh("9"), { symbols: [], orders: true, balances: true });
    await expect.poll(() => received.length).toBe(1);
    client.off("message");
  });

  it("encodes nothing for a topic nobody follows, and pushes it once somebody does", async () => {
    const rooms: string[] = [];
    const to = realtime.io.to.bind(realtime.io);
    realtime.io.to = ((room: string) => (rooms.push(room), to(room))) as typeof realtime.io.to;
    try {
      const received: unknown[] = [];
      client.on("message", (message) => received.push(message));
      const payload = { symbol: "SOL/USDT", trades: [] };
      realtime.publish(topics.trade("SOL/USDT"), payload);
      expect(rooms).toEqual([]);
      expect(await subscribe(topics.trade("SOL/USDT"))).toBe(true);
      realtime.publish(topics.trade("SOL/USDT"), payload);
      await expect.poll(() => received.length).toBe(1);
      expect(rooms).toEqual([topics.trade("SOL/USDT")]);
      expect(received).toEqual([{ topic: topics.trade("SOL/USDT"), data: payload }]);
    } finally {
      realtime.io.to = to;
    }
  });
});
