import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endpoints } from "../../protocol/endpoints";
import type { RefusalReason } from "../../protocol/refusal-reasons";
import { buildApp } from "../app";
import { DurableCore } from "../journal/durable-core";
import { spotProduct } from "../spot/spot-product";
import { SpotService } from "../spot/spot-service";
import { ApiClient, type Answer, type Caller } from "../testing/api-client";
import { lastMailedCode, registerAndLogIn, TEST_ADMIN_TOKEN } from "../testing/api-members";
import { openTestStore, testStoreKinds, type TestStore } from "../testing/test-stores";
import { withdrawalProduct } from "../wallet/withdrawal-product";
import { WithdrawalService } from "../wallet/withdrawal-service";
import { createServices } from "./context";

/**
 * The wallet's two money-moving member calls over HTTP (issue 12): a withdrawal
 * (`coin/assets/withdrawalWithNotDecrypt`) and a transfer between the member's accounts
 * (`coin/wallet/trans`). Bad input — a wrong address format, 40 decimals, more decimals than the
 * coin, a negative or zero amount, more than the balance, wrong codes — is answered with a clear
 * message (a sentence naming the problem, never a stack trace or a 5xx) and changes nothing:
 * balances, holds, withdrawal lists and the core are as before. The same post twice with one key,
 * also at once, acts once and is answered the same.
 */
describe.each(testStoreKinds())("wallet input over HTTP on %s", (kind) => {
  let store: TestStore;
  let app: FastifyInstance;
  let durable: DurableCore;
  let client: ApiClient;
  let alice: { token: string; uid: string; email: string };
  let now = Date.parse("2026-11-20T10:00:00Z");
  const admin: Caller = { admin: TEST_ADMIN_TOKEN };
  const TRON = "TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL";

  beforeAll(async () => {
    store = await openTestStore(kind);
    durable = await DurableCore.start({
      db: store.db,
      products: [spotProduct, withdrawalProduct],
      onFatal: (e) => {
        throw e;
      },
    });
    app = await buildApp({
      store,
      apiHead: "mjkj-web",
      spot: new SpotService(durable),
      withdrawals: new WithdrawalService(durable),
      services: createServices({ devMailbox: true, siteName: async () => "Meridian", adminToken: TEST_ADMIN_TOKEN, now: () => now }),
    });
    // A real socket: the answers are what a client reads off the wire.
    const url = await app.listen({ host: "127.0.0.1", port: 0 });
    client = new ApiClient(url);
    const email = `alice-input-${kind}@example.com`;
    const { uid, token } = await registerAndLogIn(url, email, "device-input-alice");
    alice = { uid, token, email };
    const id = String((await store.db.selectFrom("member").select("id").where("uid", "=", uid).executeTakeFirstOrThrow()).id);
    expect(await durable.funds.deposit(id, "USDT", "funding", "1000", `dep-input-${kind}`)).toBe(true);
    expect(await durable.funds.deposit(id, "USDT", "spot", "500", `dep-input-spot-${kind}`)).toBe(true);
    expect(await client.data(endpoints.tradePassword, { body: { tradePassword: "246810", code: await securityCode() } }, { token })).toBeNull();
  });
  afterAll(async () => {
    await app?.close();
    await durable?.drain();
    await store?.dispose();
  });

  /** A fresh security code to alice's e-mail (the resend pause is passed first). */
  async function securityCode(): Promise<string> {
    now += 61_000;
    expect((await client.call(endpoints.sendEmailCode, { query: { email: alice.email, type: "security" } }, { token: alice.token })).code).toBe(200);
    return lastMailedCode(client, alice.email, admin);
  }

  /** A fresh code for alice's withdrawal of `amount` USDT over TRC20 to TRON (what `withdraw` sends). */
  async function withdrawCode(amount: string): Promise<string> {
    now += 61_000;
    const query = { email: alice.email, type: "withdraw" as const, coin: "USDT", network: "TRC20", address: TRON, amount };
    expect((await client.call(endpoints.sendEmailCode, { query }, { token: alice.token })).code).toBe(200);
    return lastMailedCode(client, alice.email, admin);
  }

  /** Everything a refused call must leave as it was: balances and holds, the member's and the operator's withdrawal lists, the core. */
  const everything = async () => ({
    funding: await client.data(endpoints.balances, { query: { type: "1" } }, { token: alice.token }),
    spot: await client.data(endpoints.balances, { query: { type: "2" } }, { token: alice.token }),
    withdrawals: await client.data(endpoints.myWithdrawals, { query: {} }, { token: alice.token }),
    queue: await client.data(endpoints.adminWithdrawals, { query: {} }, admin),
    core: durable.core.stateHash(),
  });

  /** A clear refusal: a 4xx with the reason code, words that say what is wrong, nothing of the engine's insides. */
  function expectClear(answer: Answer<never>, reason: RefusalReason, words: RegExp, what: string) {
    expect(answer.status, what).toBeGreaterThanOrEqual(400);
    expect(answer.status, what).toBeLessThan(500);
    expect(answer, what).toMatchObject({ code: answer.status, success: false, reason });
    expect(answer.msg, what).toMatch(words);
    expect(answer.msg, what).not.toMatch(/Error\b|\bat \S+ \(|undefined|null|NaN|\[object|^[a-z_]+\.[a-z_]+$|ORDER_|order/);
    expect(answer.msg.length, what).toBeLessThan(200);
  }

  const withdraw = (body: Record<string, string>) =>
    client.callUnchecked(
      endpoints.withdraw,
      {
        body: { coin: "USDT", network: "TRC20", address: TRON, amount: "50", tradePassword: "246810", code: "000000", idempotencyKey: "input-key-1", ...body },
      },
      { token: alice.token },
    );

  it("refuses a withdrawal's bad input with a clear message and changes nothing", async () => {
    const before = await everything();
    const code = await withdrawCode("5000");
    const refusals: Array<[Record<string, string>, RefusalReason, RegExp]> = [
      [{ address: "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq" }, "ADDRESS_INVALID", /^This is not a valid TRC20 address\.$/],
      [{ address: TRON.slice(0, -1) + "M" }, "ADDRESS_INVALID", /^This is not a valid TRC20 address\.$/],
      [{ address: "" }, "VALIDATION", /address: must be an address of 1 to 128 characters/],
      [{ amount: "1." + "0".repeat(39) + "1" }, "VALIDATION", /amount: .*at most 18 decimals/],
      [{ amount: "50.1234567" }, "AMOUNT_PRECISION", /^USDT takes at most 6 decimals\.$/],
      [{ amount: "-5" }, "VALIDATION", /amount: must be a positive decimal number/],
      [{ amount: "0" }, "VALIDATION", /amount: must be more than 0/],
      [{ amount: "1e3" }, "VALIDATION", /amount: must be a positive decimal number/],
      [{ amount: "1" + "0".repeat(30) }, "VALIDATION", /amount: must be below 1,000,000,000,000,000/],
      [{ amount: "0.5" }, "WITHDRAWAL_BELOW_MINIMUM", /^The minimum withdrawal is 10 USDT\.$/],
      [{ amount: "20000" }, "WITHDRAWAL_DAILY_LIMIT", /daily withdrawal limit of 10000 USDT/],
      [{ coin: "usdt" }, "VALIDATION", /coin: must be a coin code such as BTC/],
      [{ coin: "NOPE" }, "WITHDRAWAL_NETWORK_UNKNOWN", /^NOPE cannot be withdrawn on the TRC20 network\.$/],
      [{ network: "TRX20" }, "WITHDRAWAL_NETWORK_UNKNOWN", /^USDT cannot be withdrawn on the TRX20 network\.$/],
      [{ network: "trc-20" }, "VALIDATION", /network: must be a network such as ERC20/],
      [{ network: "SOL", address: "11111111111111111111111111111111" }, "WITHDRAWAL_DISABLED", /switched off/],
      [
        { coin: "XRP", network: "XRP", address: "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh", amount: "25", memo: "12ab" },
        "ADDRESS_INVALID",
        /destination tag must be a whole number/,
      ],
      [{ tradePassword: "135790" }, "TRADE_PASSWORD_WRONG", /^The transaction password is wrong\.$/],
      [{ tradePassword: "abc" }, "VALIDATION", /tradePassword: must be 6 digits/],
      [{ code: "12" }, "VALIDATION", /code: must be the 6-digit code/],
      [{ idempotencyKey: "k" }, "VALIDATION", /idempotencyKey: must be 8 to 64 letters/],
    ];
    for (const [body, reason, words] of refusals) expectClear(await withdraw({ code, ...body }), reason, words, JSON.stringify(body));
    expectClear(await withdraw({ code: "999999", idempotencyKey: "input-key-code" }), "CODE_WRONG", /code/i, "a wrong code");
    // More than the balance (within the day's limit): the code is needed to get that far.
    expectClear(
      await withdraw({ code, amount: "5000", idempotencyKey: "input-key-much" }),
      "RISK_INSUFFICIENT_AVAILABLE",
      /^Insufficient available balance$/,
      "5000",
    );
    expect(await everything()).toEqual(before);
  });

  const transfer = (query: Record<string, string>) =>
    client.callUnchecked(
      endpoints.transfer,
      { query: { from: "1", to: "2", coin: "USDT", amount: "10", idempotencyKey: "input-trans-1", ...query } },
      { token: alice.token },
    );

  it("refuses a transfer's bad input with a clear message and changes nothing", async () => {
    const before = await everything();
    const refusals: Array<[Record<string, string>, RefusalReason, RegExp]> = [
      [{ from: "9" }, "VALIDATION", /from: /],
      [{ to: "3" }, "VALIDATION", /to: /],
      [{ from: "x" }, "VALIDATION", /from: /],
      [{ to: "1" }, "ORDER_BAD_COMMAND", /two different accounts/],
      [{ amount: "1." + "0".repeat(39) + "1" }, "VALIDATION", /amount: .*at most 18 decimals/],
      [{ amount: "0.000000001" }, "AMOUNT_PRECISION", /^USDT takes at most 8 decimals\.$/],
      [{ amount: "-1" }, "VALIDATION", /amount: /],
      [{ amount: "0" }, "VALIDATION", /amount: /],
      [{ amount: "1000000" }, "RISK_INSUFFICIENT_AVAILABLE", /^Insufficient available balance$/],
      [{ coin: "NOPE" }, "COIN_UNKNOWN", /^No coin NOPE is listed\.$/],
      [{ coin: "usdt" }, "VALIDATION", /coin: must be a coin code such as BTC/],
      [{ idempotencyKey: "k" }, "VALIDATION", /idempotencyKey: must be 8 to 64 letters/],
    ];
    for (const [query, reason, words] of refusals) expectClear(await transfer(query), reason, words, JSON.stringify(query));
    expect(await everything()).toEqual(before);
  });

  it("acts once on a withdrawal posted several times at once with one key, and answers each post the same", async () => {
    const code = await withdrawCode("20");
    const before = (await everything()).funding.find((b) => b.coin === "USDT")!;
    const answers = await Promise.all(Array.from({ length: 5 }, () => withdraw({ code, amount: "20", idempotencyKey: "input-once-1" })));
    expect(answers.map((a) => a.code)).toEqual([200, 200, 200, 200, 200]);
    expect(new Set(answers.map((a) => JSON.stringify(a.data))).size).toBe(1);
    // A later retry (the code is used up by now) gets the same answer; the key for another amount is a conflict.
    expect(await withdraw({ code, amount: "20", idempotencyKey: "input-once-1" })).toEqual(answers[0]);
    expectClear(
      await withdraw({ code, amount: "21", idempotencyKey: "input-once-1" }),
      "IDEMPOTENCY_KEY_REUSED",
      /already used for a different request/,
      "reused",
    );
    const mine = (await client.data(endpoints.myWithdrawals, { query: {} }, { token: alice.token })).records.filter((w) => w.amount === "20");
    expect(mine).toHaveLength(1);
    // 20 and the TRC20 fee of 1, held once.
    expect((await everything()).funding.find((b) => b.coin === "USDT")).toEqual({
      coin: "USDT",
      available: String(Number(before.available) - 21),
      frozen: String(Number(before.frozen) + 21),
    });
  });

  it("answers a retried withdrawal with its first answer even when the first one used up the day's limit", async () => {
    const id = String((await store.db.selectFrom("member").select("id").where("uid", "=", alice.uid).executeTakeFirstOrThrow()).id);
    expect(await durable.funds.deposit(id, "USDT", "funding", "20000", `dep-input-big-${kind}`)).toBe(true);
    const code = await withdrawCode("6000");
    const first = await withdraw({ code, amount: "6000", idempotencyKey: "input-limit-1" });
    expect(first).toMatchObject({ code: 200, data: { state: "review" } });
    // 6,000 of the day's 10,000 are used by this very withdrawal: its retry is not a second 6,000.
    expect(await withdraw({ code, amount: "6000", idempotencyKey: "input-limit-1" })).toEqual(first);
    // Another 6,000 under a new key is over the limit.
    expectClear(await withdraw({ code, amount: "6000", idempotencyKey: "input-limit-2" }), "WITHDRAWAL_DAILY_LIMIT", /daily withdrawal limit/, "over");
  });

  it("acts once on a transfer posted several times at once with one key", async () => {
    const before = await everything();
    const answers = await Promise.all(Array.from({ length: 8 }, () => transfer({ amount: "12.5", idempotencyKey: "input-trans-once" })));
    expect(answers.map((a) => a.code)).toEqual(Array(8).fill(200));
    expect(await transfer({ amount: "12.5", idempotencyKey: "input-trans-once" })).toMatchObject({ code: 200 });
    expectClear(
      await transfer({ amount: "13", idempotencyKey: "input-trans-once" }),
      "IDEMPOTENCY_KEY_REUSED",
      /already used for a different request/,
      "reused",
    );
    const after = await everything();
    const usdt = (list: Array<{ coin: string; available: string }>) => Number(list.find((b) => b.coin === "USDT")!.available);
    expect(usdt(after.funding)).toBe(usdt(before.funding) - 12.5);
    expect(usdt(after.spot)).toBe(usdt(before.spot) + 12.5);
  });
});
