import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * Tickets for private topics: the web tier asks for one with the member's token and hands it to
 * the page; the socket presents it to follow `refresh_{memberId}`. A ticket names the member and
 * an expiry and is signed with a key (REALTIME_SECRET, or one random per process: a restart only
 * makes pages fetch a new ticket). Nothing else about the member travels.
 */
export const TICKET_TTL_MS = 5 * 60_000;

export class TicketSigner {
  private readonly key: Buffer;

  constructor(secret?: string) {
    this.key = secret ? Buffer.from(secret) : randomBytes(32);
  }

  issue(memberId: string, now: number): { ticket: string; expiresAt: number } {
    const expiresAt = now + TICKET_TTL_MS;
    const body = `${memberId}.${expiresAt}`;
    return { ticket: `${body}.${this.sign(body)}`, expiresAt };
  }

  /** The member a ticket was issued to, if it is genuine and unexpired. */
  verify(ticket: unknown, now: number): string | null {
    return this.read(ticket, now)?.memberId ?? null;
  }

  /** A genuine, unexpired ticket's member and when it was issued. */
  read(ticket: unknown, now: number): { memberId: string; issuedAt: number } | null {
    if (typeof ticket !== "string" || ticket.length > 200) return null;
    const match = ticket.match(/^(\d{1,20})\.(\d{1,15})\.([A-Za-z0-9_-]{43})$/);
    if (!match) return null;
    const [, memberId, expiresAt, signature] = match as unknown as [string, string, string, string];
    const expected = Buffer.from(this.sign(`${memberId}.${expiresAt}`));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    if (Number(expiresAt) < now) return null;
    return { memberId, issuedAt: Number(expiresAt) - TICKET_TTL_MS };
  }

  private sign(body: string): string {
    return createHmac("sha256", this.key).update(body).digest("base64url");
  }
}
