import type { Server as HttpServer } from "node:http";
import { Server } from "socket.io";
import type { TicketSigner } from "./tickets";

/**
 * socket.io rooms named after spec §7's topics. Public topics (`index`, `all_symbol_detail`,
 * `kline_…`, `depth_…`, `trade_…`) need nothing; the private `refresh_{memberId}` needs a ticket
 * issued to that member (`coin/member/realtimeTicket`). Every push is the event `message` with
 * `{ topic, data }`.
 */
const PUBLIC_TOPIC = /^(index|all_symbol_detail|kline_[A-Z0-9]{1,20}_[A-Z0-9]{1,20}_(1m|5m|15m|30m|1h|4h|1d|1w|1M)|depth_[A-Z0-9]{1,20}_[A-Z0-9]{1,20}|trade_[A-Z0-9]{1,20}_[A-Z0-9]{1,20})$/;
const PRIVATE_TOPIC = /^refresh_(\d{1,20})$/;
const MAX_TOPICS_PER_SOCKET = 64;

export function isPublicTopic(topic: unknown): topic is string {
  return typeof topic === "string" && PUBLIC_TOPIC.test(topic);
}

export interface Realtime {
  io: Server;
  publish(topic: string, data: unknown): void;
}

/** Attaches socket.io to the engine's HTTP server; clients subscribe to topics, which are rooms. */
export function attachRealtime(server: HttpServer, tickets: TicketSigner, now: () => number = Date.now): Realtime {
  const io = new Server(server, {
    path: "/socket.io",
    // Spec §9: real-time keepalive 5 s.
    pingInterval: 5_000,
    pingTimeout: 10_000,
    serveClient: false,
    maxHttpBufferSize: 16 * 1024,
  });
  io.on("connection", (socket) => {
    socket.on("subscribe", (request: unknown, ack?: unknown) => {
      const reply = typeof ack === "function" ? (ack as (ok: boolean) => void) : () => {};
      if (socket.rooms.size > MAX_TOPICS_PER_SOCKET) return reply(false);
      if (isPublicTopic(request)) {
        void socket.join(request);
        return reply(true);
      }
      if (request && typeof request === "object") {
        const { topic, ticket } = request as { topic?: unknown; ticket?: unknown };
        const match = typeof topic === "string" ? topic.match(PRIVATE_TOPIC) : null;
        const memberId = tickets.verify(ticket, now());
        if (match && memberId === match[1]) {
          void socket.join(topic as string);
          return reply(true);
        }
      }
      reply(false);
    });
    socket.on("unsubscribe", (topic: unknown) => {
      if (typeof topic === "string") void socket.leave(topic);
    });
  });
  return {
    io,
    publish(topic, data) {
      io.to(topic).emit("message", { topic, data });
    },
  };
}
