import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endpoints } from "../../protocol/endpoints";
import { buildApp } from "../app";
import { DurableCore } from "../journal/durable-core";
import { spotProduct } from "../spot/spot-product";
import { SpotService } from "../spot/spot-service";
import { ApiClient, type Caller } from "../testing/api-client";
import { lastMailedCode, registerAndLogIn, TEST_ADMIN_TOKEN } from "../testing/api-members";
import { openTestStore, testStoreKinds, type TestStore } from "../testing/test-stores";
import { withdrawalProduct } from "../wallet/withdrawal-product";
import { WithdrawalService } from "../wallet/withdrawal-service";
import { createServices } from "./context";

describe.each(testStoreKinds())("withdrawal API on %s", (kind) => {
  let store: TestStore;
  let app: FastifyInstance;
  let withdrawals: WithdrawalService;
  let durable: DurableCore;
  let client: ApiClient;
  const members: Record<string, { token: string; uid: string; id: string; email: string }> = {};
  let now = Date.parse("2026-11-20T10:00:00Z");
  const as = (name: string): Caller => ({ token: members[name]!.token });
  const admin: Caller = { admin: TEST_ADMIN_TOKEN };
  const request = (name: string, key: string, amount = "100") =>
    withdrawals.request(members[name]!.id, { coin: "USDT", network: "TRC20", address: "TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL", amount, fee: "1" }, key);

  beforeAll(async () => {
    store = await openTestStore(kind);
    durable = await DurableCore.start({
      db: store.db,
      products: [spotProduct, withdrawalProduct],
      onFatal: (e) => {
        throw e;
      },
    });
    withdrawals = new WithdrawalService(durable);
    app = await buildApp({
      store,
      apiHead: "mjkj-web",
      spot: new SpotService(durable),
      withdrawals,
      services: createServices({ devMailbox: true, siteName: async () => "Meridian", adminToken: TEST_ADMIN_TOKEN, now: () => now }),
    });
    await app.ready();
    client = new ApiClient(app);
    for (const name of ["alice", "bob"]) {
      const { uid, token } = await registerAndLogIn(app, `${name}-w-${kind}@example.com`, `device-w-${name}`);
      const id = (await store.db.selectFrom("member").select("id").where("uid", "=", uid).executeTakeFirstOrThrow()).id;
      members[name] = { token, uid, id: String(id), email: `${name}-w-${kind}@example.com` };
      expect(await durable.funds.deposit(String(id), "USDT", "funding", "1000", `dep-w-${name}`)).toBe(true);
    }
  });
  afterAll(async () => {
    await app?.close();
    await durable?.drain();
    await store?.dispose();
  });

  it("lists a member's own withdrawals only; another member cannot cancel one; its member can while in review", async () => {
    const mine = await request("alice", "w-api-1");
    expect((await client.data(endpoints.myWithdrawals, { query: {} }, as("alice"))).records).toEqual([
      expect.objectContaining({ id: mine.id, coin: "USDT", amount: "100", fee: "1", state: "review", reason: null }),
    ]);
    expect((await client.data(endpoints.myWithdrawals, { query: {} }, as("bob"))).records).toEqual([]);

    expect(await client.call(endpoints.cancelWithdrawal, { params: { withdrawalId: mine.id! } }, as("bob"))).toMatchObject({
      code: 400,
      reason: "WITHDRAWAL_UNKNOWN",
    });
    expect((await client.call(endpoints.cancelWithdrawal, { params: { withdrawalId: mine.id! } }, as("alice"))).code).toBe(200);
    expect((await client.data(endpoints.myWithdrawals, { query: {} }, as("alice"))).records[0]).toMatchObject({ state: "cancelled" });
    expect(await client.call(endpoints.cancelWithdrawal, { params: { withdrawalId: mine.id! } }, {})).toMatchObject({ code: 401 });
  });

  it("filters a member's withdrawals by coin and state; a bad filter is refused with a clear message", async () => {
    const open = await request("bob", "w-api-filter-1", "15");
    const list = (query: Record<string, string>) => client.data(endpoints.myWithdrawals, { query }, as("bob"));
    expect((await list({ state: "review" })).records.map((w) => w.id)).toContain(open.id);
    expect((await list({ state: "cancelled" })).records.map((w) => w.id)).not.toContain(open.id);
    expect((await list({ coin: "USDT", state: "review" })).total).toBeGreaterThan(0);
    expect(await list({ coin: "BTC" })).toMatchObject({ records: [], total: 0 });
    const bad = await client.callUnchecked(endpoints.myWithdrawals, { query: { state: "lost" } }, as("bob"));
    expect(bad).toMatchObject({ code: 400 });
    expect(JSON.stringify(bad)).toContain("must be one of review");
    expect((await client.call(endpoints.cancelWithdrawal, { params: { withdrawalId: open.id! } }, as("bob"))).code).toBe(200);
    expect((await list({ state: "cancelled" })).records.map((w) => w.id)).toContain(open.id);
  });

  it("an operator reviews the queue: a rejection needs its reason, the member reads it; an approved one can no longer be cancelled", async () => {
    const toReject = await request("alice", "w-api-2", "10");
    const toApprove = await request("bob", "w-api-3", "20");
    const queue = await client.data(endpoints.adminWithdrawals, { query: {} }, admin);
    expect(queue.map((w) => [w.id, w.uid])).toEqual([
      [toReject.id, members.alice!.uid],
      [toApprove.id, members.bob!.uid],
    ]);
    expect((await client.call(endpoints.adminWithdrawals, { query: {} }, { admin: "wrong-token-wrong-token-wrong-token" })).status).toBe(403);

    expect(await client.callUnchecked(endpoints.adminWithdrawalReview, { body: { id: toReject.id, decision: "reject" } }, admin)).toMatchObject({
      code: 400,
      reason: "VALIDATION",
    });
    const reason = "The destination is a sanctioned service.";
    expect((await client.call(endpoints.adminWithdrawalReview, { body: { id: toReject.id!, decision: "reject", reason } }, admin)).code).toBe(200);
    expect((await client.data(endpoints.myWithdrawals, { query: {} }, as("alice"))).records[0]).toMatchObject({ id: toReject.id, state: "rejected", reason });

    expect((await client.call(endpoints.adminWithdrawalReview, { body: { id: toApprove.id!, decision: "approve" } }, admin)).code).toBe(200);
    expect(await client.call(endpoints.cancelWithdrawal, { params: { withdrawalId: toApprove.id! } }, as("bob"))).toMatchObject({
      code: 400,
      reason: "WITHDRAWAL_WRONG_STATE",
    });
    expect(await client.call(endpoints.adminWithdrawalReview, { body: { id: toApprove.id!, decision: "approve" } }, admin)).toMatchObject({
      code: 400,
      reason: "WITHDRAWAL_WRONG_STATE",
    });
    expect((await client.call(endpoints.adminWithdrawalReview, { body: { id: "nope-1234", decision: "approve" } }, admin)).code).toBe(404);
    expect(await client.data(endpoints.balances, { query: { type: "1" } }, as("alice"))).toContainEqual({ coin: "USDT", available: "1000", frozen: "0" });
    expect(await client.data(endpoints.balances, { query: { type: "1" } }, as("bob"))).toContainEqual({ coin: "USDT", available: "979", frozen: "21" });
  });

  /** A fresh security code to the member's own e-mail (the resend pause is passed first). */
  const securityCode = async (name: string) => {
    now += 61_000;
    expect((await client.call(endpoints.sendEmailCode, { query: { email: members[name]!.email, type: "security" } }, as(name))).code).toBe(200);
    return lastMailedCode(client, members[name]!.email, admin);
  };
  const TRON = "TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL";
  /** A fresh `withdraw` code for the withdrawal `ask` sends (the resend pause is passed first). */
  const withdrawCode = async (name: string, details: { amount?: string; address?: string } = {}) => {
    now += 61_000;
    const query = { email: members[name]!.email, type: "withdraw" as const, coin: "USDT", network: "TRC20", address: TRON, amount: "50", ...details };
    expect((await client.call(endpoints.sendEmailCode, { query }, as(name))).code).toBe(200);
    return lastMailedCode(client, members[name]!.email, admin);
  };
  const ask = async (name: string, body: Record<string, string>, key: string) =>
    client.callUnchecked(
      endpoints.withdraw,
      { body: { coin: "USDT", network: "TRC20", address: TRON, amount: "50", tradePassword: "246810", idempotencyKey: key, ...body } },
      as(name),
    );

  it("asks for a withdrawal with every check: network, address, decimals, minimum, passwords, codes; a retry acts once", async () => {
    expect(await ask("alice", { code: "000000" }, "ask-key-0")).toMatchObject({ code: 400, reason: "TRADE_PASSWORD_NOT_SET" });
    expect((await client.call(endpoints.tradePassword, { body: { tradePassword: "246810", code: await securityCode("alice") } }, as("alice"))).code).toBe(200);
    const before = (await client.data(endpoints.balances, { query: { type: "1" } }, as("alice"))).find((b) => b.coin === "USDT")!;

    const refused: Array<[Record<string, string>, string]> = [
      [{ network: "BTC", address: "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq" }, "WITHDRAWAL_NETWORK_UNKNOWN"],
      [{ network: "SOL", address: "11111111111111111111111111111111" }, "WITHDRAWAL_DISABLED"],
      [{ address: TRON.slice(0, -1) + "M" }, "ADDRESS_INVALID"],
      [{ address: "0x52908400098527886E0F7030069857D2E4169EE7" }, "ADDRESS_INVALID"],
      [{ amount: "1.123456789" }, "AMOUNT_PRECISION"],
      // USDT is kept to 8 decimals, but TRC20 carries 6.
      [{ amount: "50.1234567" }, "AMOUNT_PRECISION"],
      [{ amount: "0.5" }, "WITHDRAWAL_BELOW_MINIMUM"],
      [{ amount: "20000000" }, "WITHDRAWAL_DAILY_LIMIT"],
      [{ tradePassword: "135790" }, "TRADE_PASSWORD_WRONG"],
    ];
    const code = await withdrawCode("alice");
    for (const [body, reason] of refused) expect(await ask("alice", { code, ...body }, `ask-${reason}`), reason).toMatchObject({ code: 400, reason });
    expect(await ask("alice", { code: "111111" }, "ask-bad-code")).toMatchObject({ code: 400, reason: "CODE_WRONG" });
    expect((await client.data(endpoints.balances, { query: { type: "1" } }, as("alice"))).find((b) => b.coin === "USDT")).toEqual(before);

    // A security code is no withdrawal code (and asking for it did not delay the withdrawal code).
    expect(await ask("alice", { code: await securityCode("alice") }, "ask-security-code")).toMatchObject({ code: 400, reason: "CODE_WRONG" });
    // The code sent for 50 USDT confirms no other amount (a wrong try, counted).
    const other = await ask("alice", { code, amount: "49" }, "ask-other-amount");
    expect(other).toMatchObject({ code: 400, reason: "CODE_WRONG" });
    expect(other.msg).toMatch(/another withdrawal/);
    // The code survived the refusals above (none of them reached it): it places the withdrawal now.
    const placed = await ask("alice", { code }, "ask-key-1");
    expect(placed).toMatchObject({ code: 200, data: { state: "review" } });
    expect(await ask("alice", { code }, "ask-key-1")).toEqual(placed);
    const after = (await client.data(endpoints.balances, { query: { type: "1" } }, as("alice"))).find((b) => b.coin === "USDT")!;
    // 50 USDT and the TRC20 fee (1) are held once.
    expect(Number(before.available) - Number(after.available)).toBe(51);
    expect((await client.data(endpoints.myWithdrawals, { query: {} }, as("alice"))).records[0]).toMatchObject({
      id: (placed.data as { id: string }).id,
      network: "TRC20",
      address: TRON,
      amount: "50",
      fee: "1",
    });
  });

  it("binds a withdrawal code to the destination tag: sent for one tag, it confirms no other tag and none (XRP)", async () => {
    // The address of another exchange: its customers are told apart by the tag alone.
    const XRP = "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh";
    expect(await durable.funds.deposit(members.alice!.id, "XRP", "funding", "100", "dep-w-xrp-alice")).toBe(true);
    now += 61_000;
    const email = members.alice!.email;
    const query = { email, type: "withdraw" as const, coin: "XRP", network: "XRP", address: XRP, amount: "25", memo: "1001" };
    expect((await client.call(endpoints.sendEmailCode, { query }, as("alice"))).code).toBe(200);
    // Its mail names the tag with the address.
    const mail = (await client.data(endpoints.devMailbox, { query: { destination: email } }, admin)).find((m) => /\d{6}$/.test(m.subject))!;
    expect(mail.body).toContain("to the address rHb9CJ…tyTh.\nTag / memo: 1001\n");
    const code = await lastMailedCode(client, email, admin);
    const xrp = { coin: "XRP", network: "XRP", address: XRP, amount: "25", code };

    for (const [body, key] of [
      [{ ...xrp, memo: "1002" }, "ask-xrp-other-tag"],
      [xrp, "ask-xrp-no-tag"],
    ] as const) {
      const refused = await ask("alice", body, key);
      expect(refused, key).toMatchObject({ code: 400, reason: "CODE_WRONG" });
      expect(refused.msg).toMatch(/another withdrawal/);
    }
    const placed = await ask("alice", { ...xrp, memo: "1001" }, "ask-xrp-tag");
    expect(placed).toMatchObject({ code: 200, data: { state: "review" } });
    expect((await client.data(endpoints.myWithdrawals, { query: { coin: "XRP" } }, as("alice"))).records).toEqual([
      expect.objectContaining({ id: (placed.data as { id: string }).id, address: XRP, memo: "1001", amount: "25" }),
    ]);
  });

  it("mails a withdrawal code that names the withdrawal and the anti-phishing code; the resend wait is per address and purpose", async () => {
    const email = members.bob!.email;
    expect((await client.call(endpoints.antiCode, { body: { antiCode: "Bob1234", code: await securityCode("bob") } }, as("bob"))).code).toBe(200);
    // A security code went to bob just now: a withdrawal code to the same address is not delayed by it.
    const query = { email, type: "withdraw" as const, coin: "USDT", network: "TRC20", address: TRON, amount: "12.50" };
    expect(await client.data(endpoints.sendEmailCode, { query }, as("bob"))).toEqual({ resendAfterSeconds: 60 });
    const mail = (await client.data(endpoints.devMailbox, { query: { destination: email } }, admin)).find((m) => /\d{6}$/.test(m.subject))!;
    expect(mail.body).toContain("Your anti-phishing code: Bob1234");
    expect(mail.body).toContain("You are confirming a withdrawal of 12.5 USDT on the TRC20 network to the address TNPeea…YqeL.");
    expect(mail.body).not.toMatch(/security setting/);

    // The same purpose within the wait: refused with the seconds left, in words and in Retry-After.
    now += 15_000;
    const again = await client.send(endpoints.sendEmailCode, { query }, as("bob"));
    expect(again.statusCode).toBe(429);
    expect(again.headers["retry-after"]).toBe("45");
    expect(again.json()).toMatchObject({ reason: "CODE_WAIT", msg: "Please wait 45 seconds before requesting another code." });

    // A withdrawal code names its withdrawal; another member's address gets none.
    const bare = await client.callUnchecked(endpoints.sendEmailCode, { query: { email, type: "withdraw" } }, as("bob"));
    expect(bare).toMatchObject({ code: 400, reason: "VALIDATION" });
    expect(bare.msg).toMatch(/amount/);
    now += 61_000;
    const notYours = await client.callUnchecked(endpoints.sendEmailCode, { query: { ...query, email: members.alice!.email } }, as("bob"));
    expect(notYours).toMatchObject({ code: 403, reason: "NOT_YOURS" });
  });

  it("never answers 5xx to malformed input", async () => {
    for (const [endpoint, input] of [
      [endpoints.cancelWithdrawal, { params: { withdrawalId: "../../x" } }],
      [endpoints.myWithdrawals, { query: { pageNo: "-1", pageSize: "9999" } }],
      [endpoints.adminWithdrawals, { query: { state: "everything" } }],
    ] as const) {
      const answer = await client.callUnchecked(endpoint, input as never, endpoint === endpoints.adminWithdrawals ? admin : as("alice"));
      expect(answer.status, JSON.stringify(input)).toBeLessThan(500);
      expect(answer.status).toBeGreaterThanOrEqual(400);
    }
  });
});
