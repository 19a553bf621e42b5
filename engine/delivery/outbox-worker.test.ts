import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestStore, type TestStore } from "../testing/test-stores";
import { createOutboxWorker, MAX_DELIVERY_ATTEMPTS } from "./outbox-worker";

/** The outbox worker against a real SMTP server on loopback. */
describe("outbox delivery over SMTP", () => {
  let store: TestStore;
  let server: SMTPServer;
  let port: number;
  let refuse = false;
  const received: Array<{ to: string; data: string }> = [];

  beforeAll(async () => {
    store = await openTestStore("pglite");
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      onRcptTo(address, _session, callback) {
        if (refuse) return callback(new Error("mailbox unavailable"));
        callback();
      },
      onData(stream, session, callback) {
        let data = "";
        stream.on("data", (chunk: Buffer) => (data += chunk.toString()));
        stream.on("end", () => {
          received.push({ to: session.envelope.rcptTo[0]!.address, data });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await store.dispose();
  });

  it("sends due e-mails once, leaves text messages, and retries failures with back-off", async () => {
    let clock = Date.parse("2026-11-22T08:00:00Z");
    const worker = createOutboxWorker({ db: store.db, smtpUrl: `smtp://127.0.0.1:${port}`, from: "Meridian <no-reply@meridian.example>", now: () => clock });
    await store.db
      .insertInto("outbox_message")
      .values([
        {
          channel: "email",
          destination: "alice@example.com",
          subject: "Meridian Exchange verification code: 123456",
          body: "Your code is 123456.",
          next_attempt_at: new Date(clock),
        },
        { channel: "sms", destination: "+49 15112345678", subject: "code 654321", body: "654321", next_attempt_at: new Date(clock) },
      ])
      .execute();
    expect(await worker.deliverDue()).toBe(1);
    expect(await worker.deliverDue()).toBe(0);
    expect(received).toHaveLength(1);
    expect(received[0]!.to).toBe("alice@example.com");
    expect(received[0]!.data).toContain("Your code is 123456.");
    const rows = await store.db.selectFrom("outbox_message").select(["channel", "delivered_at"]).orderBy("id").execute();
    expect(rows[0]!.delivered_at).not.toBeNull();
    expect(rows[1]!.delivered_at).toBeNull();

    refuse = true;
    await store.db
      .insertInto("outbox_message")
      .values({ channel: "email", destination: "bob@example.com", subject: "s", body: "b", next_attempt_at: new Date(clock) })
      .execute();
    expect(await worker.deliverDue()).toBe(0);
    const failed = await store.db
      .selectFrom("outbox_message")
      .select(["attempts", "delivery_error", "next_attempt_at"])
      .where("destination", "=", "bob@example.com")
      .executeTakeFirstOrThrow();
    expect(failed.attempts).toBe(1);
    expect(failed.delivery_error).toMatch(/mailbox unavailable/);
    expect(new Date(failed.next_attempt_at).getTime()).toBe(clock + 10_000);
    refuse = false;
    expect(await worker.deliverDue()).toBe(0); // not due yet
    clock += 10_000;
    expect(await worker.deliverDue()).toBe(1);
    expect(MAX_DELIVERY_ATTEMPTS).toBeGreaterThan(1);
    await worker.stop();
  });
});
