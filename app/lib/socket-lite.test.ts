import { createServer, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import WebSocket from "ws";
import { attachRealtime, type Realtime } from "../../engine/realtime/realtime";
import { TicketSigner } from "../../engine/realtime/tickets";
import { topics } from "#protocol/realtime";
import { openLiveSocket, type LiveSocket } from "./socket-lite";

/** The small client against the engine's own socket.io server (its real options: pings every 5 s). */
describe("openLiveSocket", () => {
  let server: HttpServer;
  let realtime: Realtime;
  let client: LiveSocket | undefined;

  async function start(port = 0) {
    server = createServer();
    realtime = attachRealtime(server, new TicketSigner("test-secret"));
    await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
    return (server.address() as AddressInfo).port;
  }
  const urlOf = (port: number) => `ws://127.0.0.1:${port}/socket.io/?EIO=4&transport=websocket`;
  const open = (port: number, extra: Partial<Parameters<typeof openLiveSocket>[0]> = {}) =>
    (client = openLiveSocket({ url: urlOf(port), WebSocket: WebSocket as unknown as typeof globalThis.WebSocket, minDelayMs: 50, maxDelayMs: 200, ...extra }));
  const subscribe = (socket: LiveSocket, topic: string) => new Promise<unknown>((resolve) => socket.emit("subscribe", topic, resolve));
  const nextMessage = (socket: LiveSocket) => new Promise<unknown>((resolve) => socket.on("message", resolve));

  afterEach(async () => {
    client?.close();
    await realtime?.io.close();
  });

  it("subscribes with an acknowledgement (sent before the link is up) and receives the topic's pushes", async () => {
    const socket = open(await start());
    const topic = topics.depth("BTC/USDT");
    expect(await subscribe(socket, topic)).toBe(true);
    expect(await subscribe(socket, "no such topic")).toBe(false);
    const message = nextMessage(socket);
    realtime.publish(topic, { seq: 1 } as never);
    expect(await message).toEqual({ topic, data: { seq: 1 } });
  });

  it("reconnects after the server drops it and says so, then follows topics again", async () => {
    const socket = open(await start());
    const topic = topics.depth("ETH/USDT");
    expect(await subscribe(socket, topic)).toBe(true);
    const reconnected = new Promise<void>((resolve) => socket.onReconnect(resolve));
    realtime.io.disconnectSockets(true);
    await reconnected;
    expect(await subscribe(socket, topic)).toBe(true);
    const message = nextMessage(socket);
    realtime.publish(topic, { seq: 2 } as never);
    expect(await message).toEqual({ topic, data: { seq: 2 } });
  });

  it("answers the server's pings, so the link outlives its ping timeout", async () => {
    const { Server } = await import("socket.io");
    const http = createServer();
    const io = new Server(http, { path: "/socket.io", pingInterval: 100, pingTimeout: 100 });
    const disconnects: string[] = [];
    io.on("connection", (s) => s.on("disconnect", (reason) => disconnects.push(reason)));
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    const socket = open((http.address() as AddressInfo).port);
    socket.emit("hello");
    await vi.waitFor(() => expect(io.sockets.sockets.size).toBe(1));
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(disconnects).toEqual([]);
    expect(io.sockets.sockets.size).toBe(1);
    await io.close();
  });

  it("falls back to the other socket when no WebSocket opens, replaying what was sent", async () => {
    // A server that refuses every upgrade.
    server = createServer();
    server.on("upgrade", (_req, socket) => socket.destroy());
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as AddressInfo).port;
    const emitted: unknown[][] = [];
    const fallback = vi.fn(async (): Promise<LiveSocket> => ({
      emit: (...args) => void emitted.push(args),
      on: () => {},
      onReconnect: () => {},
      close: () => {},
    }));
    const socket = open(port, { fallback });
    socket.emit("subscribe", "a-topic");
    await vi.waitFor(() => expect(emitted).toEqual([["subscribe", "a-topic"]]));
    socket.emit("unsubscribe", "a-topic");
    expect(emitted[1]).toEqual(["unsubscribe", "a-topic"]);
    expect(fallback).toHaveBeenCalledOnce();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
});
