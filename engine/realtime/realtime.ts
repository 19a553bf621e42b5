import type { Server as HttpServer } from "node:http";
import { Server } from "socket.io";
import { topicAccess, topics, type TopicKind, type TopicName, type TopicPayloads } from "../../protocol/realtime";
import { TICKET_TTL_MS, type TicketSigner } from "./tickets";

/**
 * socket.io rooms named after the topics of `protocol/realtime.ts`. Public topics need nothing;
 * a member's topic (`refresh_{memberId}`) needs a ticket issued to that member
 * (`coin/member/realtimeTicket`). Every push is the event `message` with `{ topic, data }`.
 */
const MAX_TOPICS_PER_SOCKET = 64;

export function isPublicTopic(topic: unknown): topic is string {
  return topicAccess(topic)?.access === "public";
}

/** Sends a topic's payload to its followers (typed by the topic's kind). */
export type Publish = <K extends TopicKind>(topic: TopicName<K>, data: TopicPayloads[K]) => void;

export interface Realtime {
  io: Server;
  publish: Publish;
  /**
   * A member's sessions ended (a freeze, a new password): their open sockets stop following the
   * member's topic, and tickets issued before now are refused, so a page holding one cannot
   * follow it again while the ticket lasts.
   */
  endMember: (memberId: string, now: number) => void;
}

/** Ends members' following of their topic; forgets an end once every ticket before it expired. */
export type EndMember = Realtime["endMember"];

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
  // Member id → when their sessions last ended; a ticket from before is refused (kept one ticket lifetime).
  const ended = new Map<string, number>();
  const endedBefore = (memberId: string, issuedAt: number) => {
    const at = ended.get(memberId);
    if (at === undefined) return false;
    if (at + TICKET_TTL_MS < now()) ended.delete(memberId);
    return issuedAt <= at;
  };
  io.on("connection", (socket) => {
    socket.on("subscribe", (request: unknown, ack?: unknown) => {
      const reply = typeof ack === "function" ? (ack as (ok: boolean) => void) : () => {};
      if (socket.rooms.size > MAX_TOPICS_PER_SOCKET) return reply(false);
      const { topic, ticket } =
        request && typeof request === "object" ? (request as { topic?: unknown; ticket?: unknown }) : { topic: request, ticket: undefined };
      const access = topicAccess(topic);
      if (!access) return reply(false);
      // A member's topic only for the member its ticket was issued to.
      if (access.access === "member") {
        const issued = tickets.read(ticket, now());
        if (issued?.memberId !== access.memberId || endedBefore(issued.memberId, issued.issuedAt)) return reply(false);
      }
      void socket.join(topic as string);
      reply(true);
    });
    socket.on("unsubscribe", (topic: unknown) => {
      if (typeof topic === "string") void socket.leave(topic);
    });
  });
  // The rooms of this process (socket.io's in-memory adapter, the only one the engine runs).
  const rooms = io.of("/").adapter.rooms;
  return {
    io,
    publish(topic, data) {
      // A topic nobody follows costs nothing: socket.io encodes a packet before it looks for the
      // room's sockets (an order pushes its member's refresh, trades, depth and tickers, and most
      // members are not connected: ~1.5 % of the engine's time per order in the order bench).
      // With an adapter shared by several processes (Redis), followers elsewhere are not in this
      // map: this check goes then.
      if (!rooms.has(topic)) return;
      io.to(topic).emit("message", { topic, data });
    },
    endMember(memberId, at) {
      ended.set(memberId, at);
      const topic = topics.refresh(memberId);
      io.in(topic).socketsLeave(topic);
    },
  };
}
