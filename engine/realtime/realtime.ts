import type { Server as HttpServer } from "node:http";
import { Server } from "socket.io";

/**
 * Public topics of spec §7 "Real-time" that anyone may follow. Private topics (`refresh_{id}`,
 * chat keys) join through a ticket and come with the members issue.
 */
const PUBLIC_TOPIC = /^(index|all_symbol_detail|kline_[A-Z0-9]{1,20}_[A-Z0-9]{1,20}_[0-9a-z]{2,6}|depth_[A-Z0-9]{1,20}_[A-Z0-9]{1,20}|trade_[A-Z0-9]{1,20}_[A-Z0-9]{1,20})$/;

export function isPublicTopic(topic: unknown): topic is string {
  return typeof topic === "string" && PUBLIC_TOPIC.test(topic);
}

/** Attaches socket.io to the engine's HTTP server; clients subscribe to topics, which are rooms. */
export function attachRealtime(server: HttpServer): Server {
  const io = new Server(server, {
    path: "/socket.io",
    // Spec §9: real-time keepalive 5 s.
    pingInterval: 5_000,
    pingTimeout: 10_000,
    serveClient: false,
  });
  io.on("connection", (socket) => {
    socket.on("subscribe", (topic: unknown, ack?: (ok: boolean) => void) => {
      const ok = isPublicTopic(topic);
      if (ok) void socket.join(topic);
      if (typeof ack === "function") ack(ok);
    });
    socket.on("unsubscribe", (topic: unknown) => {
      if (typeof topic === "string") void socket.leave(topic);
    });
  });
  return io;
}
