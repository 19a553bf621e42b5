import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DurableCore } from "../journal/durable-core";
import { createMember } from "../members/new-member";
import { openTestStore, testStoreKinds, type TestStore } from "../testing/test-stores";
import { walletMailProduct } from "./wallet-mails";
import { withdrawalProduct } from "./withdrawal-product";
import { WithdrawalService, type WithdrawalRequest } from "./withdrawal-service";
import { testAct } from "../testing/operator-act";

/**
 * The wallet's e-mails (decision 030): one outbox mail per deposit credited and per withdrawal
 * step, in the member's language, starting with their anti-phishing code; never a second one, not
 * on a retry, a restart that replays the journal, nor a rebuild of the projection.
 */
describe.each(testStoreKinds())("wallet e-mails on %s", (kind) => {
  let store: TestStore;
  let durable: DurableCore;
  let service: WithdrawalService;
  let n = 0;
  const ids: Record<string, string> = {};
  const TRON = "TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL";
  const toAddress: WithdrawalRequest = { coin: "USDT", network: "TRC20", address: TRON, amount: "100", fee: "1" };
  const start = async (snapshots = true) => {
    durable = await DurableCore.start({
      db: store.db,
      products: [withdrawalProduct, walletMailProduct],
      snapshots,
      onFatal: (e) => {
        throw e;
      },
    });
    service = new WithdrawalService(durable, { newId: () => `wm-${kind}-${++n}` });
  };
  /** The mails an address holds, oldest first (after everything applied is in the tables). */
  const mailsTo = async (email: string) => {
    await durable.drain();
    return store.db.selectFrom("outbox_message").select(["channel", "subject", "body", "dedupe_key"]).where("destination", "=", email).orderBy("id").execute();
  };
  const allMails = async () => {
    await durable.drain();
    const row = await store.db
      .selectFrom("outbox_message")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };
  const email = (name: string) => `${name}-wm-${kind}@example.com`;

  beforeAll(async () => {
    store = await openTestStore(kind);
    for (const name of ["alice", "bernd", "carol"]) {
      ids[name] = (await createMember(store.db, { account: { email: email(name) }, password: null }, Date.now())).id;
    }
    ids.phone = (await createMember(store.db, { account: { areaCode: "49", phone: "15112345678" }, password: null }, Date.now())).id;
    // Alice set an anti-phishing code; Bernd reads German and set none; Carol never said (English).
    await store.db.updateTable("member").set({ anti_code: "Blue-Falcon-7" }).where("id", "=", ids.alice!).execute();
    await store.db.updateTable("member").set({ lang: "de" }).where("id", "=", ids.bernd!).execute();
    await start();
    for (const name of ["alice", "bernd", "carol", "phone"])
      expect(await durable.funds.deposit(ids[name]!, "USDT", "funding", "1000", `seed-wm-${name}`)).toBe(true);
  });
  afterAll(async () => {
    await durable?.drain();
    await store?.dispose();
  });

  it("mails each step of a withdrawal once, with the anti-phishing code first: requested, approved, sent, completed", async () => {
    // The operator's credits above are no deposit of the member's: nothing was mailed for them.
    expect(await mailsTo(email("alice"))).toEqual([]);
    const { id } = await service.request(ids.alice!, toAddress, "wm-key-1");
    // A retry with the key acts once, and mails nothing more.
    expect((await service.request(ids.alice!, toAddress, "wm-key-1")).id).toBe(id);
    expect(await service.review(id!, "approve", undefined, testAct())).toBe("OK");
    expect(await service.review(id!, "approve", undefined, testAct())).toBe("WITHDRAWAL_WRONG_STATE");
    expect(await service.broadcast(id!, "ab".repeat(32))).toBe("OK");
    expect(await service.complete(id!)).toBe("OK");
    expect(await service.complete(id!)).toBe("WITHDRAWAL_UNKNOWN");

    const mails = await mailsTo(email("alice"));
    expect(mails.map((m) => [m.channel, m.dedupe_key, m.subject])).toEqual([
      ["email", `withdrawal:${id}:review`, "Withdrawal request received: 100 USDT"],
      ["email", `withdrawal:${id}:approved`, "Withdrawal approved: 100 USDT"],
      ["email", `withdrawal:${id}:broadcast`, "Withdrawal sent: 100 USDT"],
      ["email", `withdrawal:${id}:completed`, "Withdrawal completed: 100 USDT"],
    ]);
    for (const mail of mails) expect(mail.body.split("\n")[0]).toBe("Your anti-phishing code: Blue-Falcon-7");
    expect(mails[0]!.body).toBe(
      [
        "Your anti-phishing code: Blue-Falcon-7",
        "We have received your request to withdraw 100 USDT. It is now in review.",
        `Withdrawal ID: ${id}`,
        "Fee: 1 USDT",
        "Network: TRC20",
        `Address: ${TRON}`,
        "If you did not request this withdrawal, cancel it in your withdrawal history and change your password at once.",
      ].join("\n"),
    );
    expect(mails[2]!.body).toContain(`Transaction ID: ${"ab".repeat(32)}`);
  });

  it("says why a withdrawal was rejected, and what a cancel gave back", async () => {
    const rejected = await service.request(ids.carol!, { ...toAddress, amount: "12.5", fee: "0.75" }, "wm-key-2");
    const reason = "The address belongs to a sanctioned service.";
    expect(await service.review(rejected.id!, "reject", reason, testAct())).toBe("OK");
    const cancelled = await service.request(ids.carol!, { ...toAddress, amount: "20" }, "wm-key-3");
    expect(await service.cancel(ids.carol!, cancelled.id!)).toBe("OK");

    const mails = await mailsTo(email("carol"));
    expect(mails.map((m) => m.subject)).toEqual([
      "Withdrawal request received: 12.5 USDT",
      "Withdrawal rejected: 12.5 USDT",
      "Withdrawal request received: 20 USDT",
      "Withdrawal cancelled: 20 USDT",
    ]);
    // No code set: the mail starts with what happened.
    expect(mails[1]!.body.split("\n")).toEqual([
      "Your withdrawal of 12.5 USDT was rejected. The 13.25 USDT held for it (amount and fee) is available in your funding account again.",
      `Reason: ${reason}`,
      `Withdrawal ID: ${rejected.id}`,
      "Fee: 0.75 USDT",
    ]);
    expect(mails[3]!.body).toContain("The 21 USDT held for it");
  });

  it("mails a credited chain deposit once, in the member's language; a phone-only member gets no mail", async () => {
    const txid = "cd".repeat(32);
    const source = { network: "TRC20", txid };
    expect(await durable.funds.deposit(ids.bernd!, "USDT", "funding", "250.5", `chain:tron:${txid}:0`, source)).toBe(true);
    // The watcher's next pass, or a duplicate report: the id was credited, nothing happens.
    expect(await durable.funds.deposit(ids.bernd!, "USDT", "funding", "250.5", `chain:tron:${txid}:0`, source)).toBe(false);
    const mails = await mailsTo(email("bernd"));
    expect(mails).toEqual([
      {
        channel: "email",
        dedupe_key: `deposit:chain:tron:${txid}:0`,
        subject: "Einzahlung gutgeschrieben: 250.5 USDT",
        body: ["Ihre Einzahlung von 250.5 USDT wurde Ihrem Funding-Konto gutgeschrieben.", "Netzwerk: TRC20", `Transaktions-ID: ${txid}`].join("\n"),
      },
    ]);

    const before = await allMails();
    expect(await durable.funds.deposit(ids.phone!, "USDT", "funding", "5", `chain:tron:${"ef".repeat(32)}:1`, source)).toBe(true);
    const { id } = await service.request(ids.phone!, toAddress, "wm-key-4");
    expect(await service.review(id!, "approve", undefined, testAct())).toBe("OK");
    expect(await allMails()).toBe(before);
  });

  it("writes no mail twice: not when a restart replays the journal, nor when the projection is rebuilt from empty tables", async () => {
    const { id } = await service.request(ids.alice!, { ...toAddress, amount: "7" }, "wm-key-5");
    // The engine answers, its tables stop (then it dies): the cancel's mail is not written yet.
    await durable.drain();
    await durable.projection.pause(true);
    expect(await service.cancel(ids.alice!, id!)).toBe("OK");
    const cancelled = () => store.db.selectFrom("outbox_message").select("id").where("dedupe_key", "=", `withdrawal:${id}:cancelled`).execute();
    expect(await cancelled()).toEqual([]);
    const live = durable.core.stateHash();

    // A start replays the journal after the tables' cursor and writes the missing mail, once.
    await start();
    expect(durable.core.stateHash()).toBe(live);
    expect(await cancelled()).toHaveLength(1);
    const count = await allMails();
    await start();
    await start(false);
    expect(await allMails()).toBe(count);

    // Every query table emptied and the cursor set back: the whole journal is projected again.
    await sql`delete from ledger_hold; delete from ledger_transfer; delete from ledger_account; delete from wallet_withdrawal;
              update projection_cursor set seq = 0`.execute(store.db);
    await start(false);
    expect(durable.restoredFrom).toMatchObject({ source: "tables", seq: 0 });
    expect(durable.core.stateHash()).toBe(live);
    expect(await store.db.selectFrom("wallet_withdrawal").select("id").where("id", "=", id!).executeTakeFirst()).toBeDefined();
    expect(await allMails()).toBe(count);
    expect(await cancelled()).toHaveLength(1);
  });
});
