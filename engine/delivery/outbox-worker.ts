import type { Kysely } from "kysely";
import nodemailer, { type Transporter } from "nodemailer";
import type { Database } from "../store/schema";

/**
 * Delivers the outbox's e-mails over SMTP (`SMTP_URL`). A message is written to the outbox in the
 * same request that created its code; this worker sends it afterwards, so a slow or failing mail
 * server never slows a member's request. Failures are retried with back-off, 6 tries in all.
 * Text messages stay in the outbox until an SMS provider is configured.
 */
export const MAX_DELIVERY_ATTEMPTS = 6;
const BATCH = 20;

export interface OutboxWorker {
  /** Sends what is due now; returns how many were delivered. */
  deliverDue(): Promise<number>;
  stop(): Promise<void>;
}

export function createOutboxWorker(options: {
  db: Kysely<Database>;
  smtpUrl: string;
  from: string;
  now?: () => number;
  log?: { warn: (obj: object, msg: string) => void };
}): OutboxWorker {
  const transport: Transporter = nodemailer.createTransport(options.smtpUrl);
  const now = options.now ?? Date.now;
  let running: Promise<number> | null = null;

  async function deliverDue(): Promise<number> {
    const due = await options.db
      .selectFrom("outbox_message")
      .select(["id", "destination", "subject", "body", "attempts"])
      .where("channel", "=", "email")
      .where("delivered_at", "is", null)
      .where("attempts", "<", MAX_DELIVERY_ATTEMPTS)
      .where("next_attempt_at", "<=", new Date(now()))
      .orderBy("id")
      .limit(BATCH)
      .execute();
    let delivered = 0;
    for (const message of due) {
      try {
        await transport.sendMail({ from: options.from, to: message.destination, subject: message.subject, text: message.body });
        await options.db
          .updateTable("outbox_message")
          .set({ delivered_at: new Date(now()), delivery_error: null })
          .where("id", "=", message.id)
          .execute();
        delivered++;
      } catch (error) {
        const attempts = message.attempts + 1;
        options.log?.warn({ id: message.id, attempts, err: (error as Error).message }, "e-mail delivery failed");
        await options.db
          .updateTable("outbox_message")
          .set({
            attempts,
            delivery_error: String((error as Error).message).slice(0, 400),
            // 10 s, 20 s, 40 s, … between tries.
            next_attempt_at: new Date(now() + 10_000 * 2 ** (attempts - 1)),
          })
          .where("id", "=", message.id)
          .execute();
      }
    }
    return delivered;
  }

  const timer = setInterval(() => {
    running ??= deliverDue()
      .catch((error) => {
        options.log?.warn({ err: (error as Error).message }, "outbox worker tick failed");
        return 0;
      })
      .finally(() => {
        running = null;
      });
  }, 1_000);
  timer.unref();

  return {
    deliverDue,
    async stop() {
      clearInterval(timer);
      await running;
      transport.close();
    },
  };
}
