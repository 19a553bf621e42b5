import { endpoints } from "../../../protocol/endpoints";
import type { ApiContext } from "../context";
import { registerEndpoint } from "../register";
import { requireAdmin } from "./kyc";

/**
 * The dev mailbox: with no real delivery configured, codes go to the outbox table only, and this
 * endpoint (and `npm run admin -- mailbox <address>`) shows what was sent, to the operator only:
 * it holds every address's registration and reset codes, so it needs the admin token (issue 9).
 * Never served when delivery is real.
 */
export function registerMailboxRoutes({ app, apiHead, db, services }: ApiContext): void {
  if (!services.devMailbox) return;
  registerEndpoint(app, apiHead, endpoints.devMailbox, async ({ query, request }) => {
    requireAdmin(request, services.adminToken);
    const rows = await db
      .selectFrom("outbox_message")
      .selectAll()
      .where("destination", "=", query.destination.trim().toLowerCase())
      .orderBy("id", "desc")
      .limit(20)
      .execute();
    return rows.map((r) => ({ id: r.id, channel: r.channel, destination: r.destination, subject: r.subject, body: r.body, createdAt: new Date(r.created_at).toISOString() }));
  });
}
