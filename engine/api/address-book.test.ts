import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADDRESS_BOOK_LIMIT } from "../../protocol/endpoints/address-book";
import { endpoints } from "../../protocol/endpoints";
import { buildApp } from "../app";
import { totpCode } from "../core/members/totp";
import { tronAddress } from "../core/wallet/address-formats";
import { DurableCore } from "../journal/durable-core";
import { spotProduct } from "../spot/spot-product";
import { SpotService } from "../spot/spot-service";
import { ApiClient, type Caller } from "../testing/api-client";
import { lastMailedCode, registerAndLogIn, TEST_ADMIN_TOKEN } from "../testing/api-members";
import { openTestStore, testStoreKinds, type TestStore } from "../testing/test-stores";
import { withdrawalProduct } from "../wallet/withdrawal-product";
import { WithdrawalService } from "../wallet/withdrawal-service";
import { createServices } from "./context";

const TRON = "TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL";
const EVM = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
const XRP = "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh";
const HOUR = 3600_000;

describe.each(testStoreKinds())("withdrawal address book and whitelist API on %s", (kind) => {
  let store: TestStore;
  let app: FastifyInstance;
  let durable: DurableCore;
  let client: ApiClient;
  const members: Record<string, { token: string; email: string }> = {};
  let now = Date.parse("2026-11-20T10:00:00Z");
  const as = (name: string): Caller => ({ token: members[name]!.token });
  const admin: Caller = { admin: TEST_ADMIN_TOKEN };

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
    await app.ready();
    client = new ApiClient(app);
    for (const name of ["alice", "bob", "carol", "gina"]) {
      const email = `${name}-book-${kind}@example.com`;
      const { uid, token } = await registerAndLogIn(app, email, `device-book-${name}`);
      members[name] = { token, email };
      const id = (await store.db.selectFrom("member").select("id").where("uid", "=", uid).executeTakeFirstOrThrow()).id;
      expect(await durable.funds.deposit(String(id), "USDT", "funding", "1000", `dep-book-${name}`)).toBe(true);
    }
  });
  afterAll(async () => {
    await app?.close();
    await durable?.drain();
    await store?.dispose();
  });

  const book = async (name: string, coin?: string) => client.data(endpoints.addressBook, { query: coin ? { coin } : {} }, as(name));
  const add = (name: string, body: Record<string, string>) =>
    client.callUnchecked(endpoints.addAddress, { body: { coin: "USDT", network: "TRC20", address: TRON, label: "Cold wallet", ...body } }, as(name));
  /** A fresh security code to the member's own e-mail (the resend pause is passed first). */
  const securityCode = async (name: string) => {
    now += 61_000;
    expect((await client.call(endpoints.sendEmailCode, { query: { email: members[name]!.email, type: "security" } }, as(name))).code).toBe(200);
    return lastMailedCode(client, members[name]!.email, admin);
  };
  /** A fresh code for a withdrawal of 10 USDT over TRC20 to `address` (the resend pause is passed first). */
  const withdrawCode = async (name: string, address: string) => {
    now += 61_000;
    const query = { email: members[name]!.email, type: "withdraw" as const, coin: "USDT", network: "TRC20", amount: "10", address };
    expect((await client.call(endpoints.sendEmailCode, { query }, as(name))).code).toBe(200);
    return lastMailedCode(client, members[name]!.email, admin);
  };
  const whitelist = (name: string, body: Record<string, unknown>) => client.callUnchecked(endpoints.addressWhitelist, { body }, as(name));

  it("saves, lists (all or one coin's, newest first) and deletes a member's addresses", async () => {
    const saved = await add("alice", {});
    expect(saved).toMatchObject({ code: 200 });
    const first = saved.data as { id: string };
    // An EVM address typed in lower case is kept with its checksum.
    const eth = await add("alice", { coin: "ETH", network: "ERC20", address: EVM.toLowerCase(), label: "  Ledger  " });
    expect(eth.data).toMatchObject({ coin: "ETH", network: "ERC20", address: EVM, memo: null, label: "Ledger" });

    const all = await book("alice");
    expect(all).toMatchObject({ whitelist: false, whitelistSince: null });
    expect(all.addresses.map((a) => a.label)).toEqual(["Ledger", "Cold wallet"]);
    expect(all.addresses[1]).toEqual({
      id: first.id,
      coin: "USDT",
      network: "TRC20",
      address: TRON,
      memo: null,
      label: "Cold wallet",
      createdAt: new Date(now).toISOString(),
      usableFrom: new Date(now + 24 * HOUR).toISOString(),
    });
    expect((await book("alice", "ETH")).addresses.map((a) => a.address)).toEqual([EVM]);
    expect((await book("alice", "BTC")).addresses).toEqual([]);

    expect((await client.call(endpoints.deleteAddress, { params: { addressId: (eth.data as { id: string }).id } }, as("alice"))).code).toBe(200);
    expect((await book("alice")).addresses.map((a) => a.label)).toEqual(["Cold wallet"]);
    expect(await client.call(endpoints.deleteAddress, { params: { addressId: (eth.data as { id: string }).id } }, as("alice"))).toMatchObject({
      code: 400,
      reason: "ADDRESS_UNKNOWN",
      msg: "No such saved address.",
    });
  });

  it("refuses a bad address, network, tag or label and a duplicate, with a clear message, saving nothing", async () => {
    const before = await book("alice");
    const refused: Array<[Record<string, string>, string, RegExp?]> = [
      [{ address: TRON.slice(0, -1) + "M" }, "ADDRESS_INVALID", /^This is not a valid TRC20 address\.$/],
      [{ address: EVM }, "ADDRESS_INVALID"],
      [{ network: "BTC", address: "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq" }, "WITHDRAWAL_NETWORK_UNKNOWN", /USDT cannot be withdrawn on the BTC network/],
      [{ memo: "123" }, "ADDRESS_INVALID", /The TRC20 network takes no destination tag/],
      [{ coin: "XRP", network: "XRP", address: XRP, memo: "01" }, "ADDRESS_INVALID", /destination tag must be a whole number/],
      [{ label: "" }, "VALIDATION", /label: must be a label of 1 to 30 characters/],
      [{ label: "   " }, "VALIDATION"],
      [{ label: "x".repeat(31) }, "VALIDATION"],
      [{ label: "two\nlines" }, "VALIDATION"],
      [{ address: "" }, "VALIDATION"],
      [{ label: "Again" }, "ADDRESS_DUPLICATE", /^This address is already in your address book as “Cold wallet”\.$/],
    ];
    for (const [body, reason, message] of refused) {
      const answer = await add("alice", body);
      expect(answer, JSON.stringify(body)).toMatchObject({ reason });
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
      if (message) expect(answer.msg).toMatch(message);
    }
    // In the member's language.
    expect(
      (
        await client.callUnchecked(
          endpoints.addAddress,
          { body: { coin: "USDT", network: "TRC20", address: TRON, label: "Again" } },
          { ...as("alice"), lang: "de" },
        )
      ).msg,
    ).toBe("Diese Adresse steht bereits als „Cold wallet“ in Ihrem Adressbuch.");
    expect(await book("alice")).toEqual(before);

    // One EVM address in two spellings is one entry; a tag makes another XRP entry.
    await add("alice", { coin: "ETH", network: "ERC20", address: EVM, label: "Ledger" });
    expect(await add("alice", { coin: "ETH", network: "ERC20", address: EVM.toLowerCase(), label: "Ledger 2" })).toMatchObject({
      code: 409,
      reason: "ADDRESS_DUPLICATE",
    });
    // The same address for another coin on the network is an entry of its own.
    expect(await add("alice", { coin: "USDT", network: "ERC20", address: EVM, label: "Ledger USDT" })).toMatchObject({ code: 200 });
    expect(await add("alice", { coin: "XRP", network: "XRP", address: XRP, label: "XRP no tag" })).toMatchObject({ code: 200 });
    expect(await add("alice", { coin: "XRP", network: "XRP", address: XRP, memo: "12345", label: "XRP tag" })).toMatchObject({
      code: 200,
      data: { memo: "12345" },
    });
    expect(await add("alice", { coin: "XRP", network: "XRP", address: XRP, memo: "12345", label: "XRP tag 2" })).toMatchObject({ reason: "ADDRESS_DUPLICATE" });
  });

  it("keeps at most 50 addresses a member", async () => {
    for (let i = 0; i < ADDRESS_BOOK_LIMIT; i++) {
      const answer = await add("carol", { address: tronAddress(new Uint8Array(20).fill(i + 1)), label: `Wallet ${i + 1}` });
      expect(answer.code, answer.msg).toBe(200);
    }
    const full = await add("carol", { address: TRON, label: "One too many" });
    expect(full).toMatchObject({
      code: 400,
      reason: "ADDRESS_BOOK_FULL",
      msg: "Your address book holds at most 50 addresses. Delete one before saving another.",
    });
    expect((await book("carol")).addresses).toHaveLength(ADDRESS_BOOK_LIMIT);
  });

  it("never shows or deletes another member's addresses", async () => {
    const mine = (await book("alice")).addresses;
    expect(mine.length).toBeGreaterThan(0);
    expect((await book("bob")).addresses).toEqual([]);
    for (const address of mine)
      expect(await client.call(endpoints.deleteAddress, { params: { addressId: address.id } }, as("bob"))).toMatchObject({
        code: 400,
        reason: "ADDRESS_UNKNOWN",
      });
    expect((await book("alice")).addresses).toEqual(mine);
    expect((await client.call(endpoints.addressBook, { query: {} }, {})).code).toBe(401);
    expect(await client.callUnchecked(endpoints.deleteAddress, { params: { addressId: "../1" } }, as("bob"))).toMatchObject({
      code: 400,
      reason: "VALIDATION",
    });
  });

  it("turns the whitelist on and off only with the right security code", async () => {
    expect(await whitelist("bob", { enabled: true })).toMatchObject({ code: 400, reason: "VALIDATION" });
    const code = await securityCode("bob");
    expect(await whitelist("bob", { enabled: true, code: code === "000000" ? "111111" : "000000" })).toMatchObject({ code: 400, reason: "CODE_WRONG" });
    expect(await book("bob")).toMatchObject({ whitelist: false });
    expect(await whitelist("bob", { enabled: true, code })).toMatchObject({
      code: 200,
      data: { whitelist: true, whitelistSince: new Date(now).toISOString() },
    });
    // A code is used once.
    expect(await whitelist("bob", { enabled: false, code })).toMatchObject({ code: 400, reason: "CODE_EXPIRED" });
    expect(await book("bob")).toMatchObject({ whitelist: true });
    expect(await whitelist("bob", { enabled: false, code: await securityCode("bob") })).toMatchObject({
      code: 200,
      data: { whitelist: false, whitelistSince: null },
    });
  });

  it("asks for the Google code too when it is bound, both ways", async () => {
    const { secret } = await client.data(endpoints.googleVerification, { params: { purpose: "bind" } }, as("gina"));
    const bindCode = await securityCode("gina");
    const bound = await client.call(
      endpoints.googleBindingOrReset,
      { params: { googleCode: totpCode(secret, now), mode: "2" }, query: { code: bindCode } },
      as("gina"),
    );
    expect(bound.data).toEqual({ googleBound: true });
    const code = await securityCode("gina");
    expect(await whitelist("gina", { enabled: true, code })).toMatchObject({ code: 400, reason: "GOOGLE_CODE_WRONG" });
    // The security code was not burnt by the missing Google code.
    expect(await whitelist("gina", { enabled: true, code, googleCode: totpCode(secret, now) })).toMatchObject({ code: 200, data: { whitelist: true } });
    expect(await whitelist("gina", { enabled: false, code: await securityCode("gina") })).toMatchObject({ reason: "GOOGLE_CODE_WRONG" });
    expect(await whitelist("gina", { enabled: false, code: await securityCode("gina"), googleCode: totpCode(secret, now) })).toMatchObject({
      data: { whitelist: false },
    });
  });

  it("with the whitelist on, withdraws only to a saved address saved 24 hours ago or more", async () => {
    expect((await client.call(endpoints.tradePassword, { body: { tradePassword: "246810", code: await securityCode("bob") } }, as("bob"))).code).toBe(200);
    const withdraw = async (body: Record<string, string>, key: string) =>
      client.callUnchecked(
        endpoints.withdraw,
        {
          body: {
            coin: "USDT",
            network: "TRC20",
            address: TRON,
            amount: "10",
            tradePassword: "246810",
            code: await withdrawCode("bob", body.address ?? TRON),
            idempotencyKey: key,
            ...body,
          },
        },
        as("bob"),
      );
    // Saved a day ago: usable the moment the whitelist is on.
    expect((await add("bob", { label: "Old one" })).code).toBe(200);
    now += 24 * HOUR;
    expect((await whitelist("bob", { enabled: true, code: await securityCode("bob") })).code).toBe(200);
    const balance = async () => (await client.data(endpoints.balances, { query: { type: "1" } }, as("bob"))).find((b) => b.coin === "USDT");
    const before = await balance();

    const unsaved = tronAddress(new Uint8Array(20).fill(99));
    expect(await withdraw({ address: unsaved }, "whitelist-unsaved")).toMatchObject({
      code: 400,
      reason: "ADDRESS_NOT_WHITELISTED",
      msg: "Whitelist mode is on: withdrawals go only to addresses saved in your address book for this coin and network.",
    });
    // Saved for another coin is not saved for this one.
    expect((await add("bob", { coin: "TRX", address: unsaved, label: "TRX only" })).code).toBe(200);
    expect(await withdraw({ address: unsaved }, "whitelist-other-coin")).toMatchObject({ reason: "ADDRESS_NOT_WHITELISTED" });

    const savedAt = now;
    expect((await add("bob", { address: unsaved, label: "New one" })).code).toBe(200);
    now = savedAt + 23 * HOUR;
    const waiting = await withdraw({ address: unsaved }, "whitelist-waiting");
    expect(waiting).toMatchObject({ code: 400, reason: "ADDRESS_WHITELIST_WAITING" });
    expect(waiting.msg).toBe(
      `Whitelist mode is on and this address was saved less than 24 hours ago: it can be used from ${new Date(savedAt + 24 * HOUR).toISOString().slice(0, 16).replace("T", " ")} UTC.`,
    );
    expect(await balance()).toEqual(before);

    const old = await withdraw({}, "whitelist-old");
    expect(old, old.msg).toMatchObject({ code: 200, data: { state: "review" } });
    now = savedAt + 24 * HOUR;
    expect(await withdraw({ address: unsaved }, "whitelist-day-later")).toMatchObject({ code: 200, data: { state: "review" } });
    // Deleted: no longer whitelisted.
    const entry = (await book("bob", "USDT")).addresses.find((a) => a.label === "New one")!;
    expect((await client.call(endpoints.deleteAddress, { params: { addressId: entry.id } }, as("bob"))).code).toBe(200);
    expect(await withdraw({ address: unsaved }, "whitelist-deleted")).toMatchObject({ reason: "ADDRESS_NOT_WHITELISTED" });

    // With the whitelist off again, any valid address goes.
    expect((await whitelist("bob", { enabled: false, code: await securityCode("bob") })).code).toBe(200);
    expect(await withdraw({ address: unsaved }, "whitelist-off")).toMatchObject({ code: 200 });
  });

  it("never answers 5xx to malformed input", async () => {
    for (const [endpoint, input] of [
      [endpoints.addressBook, { query: { coin: "not a coin" } }],
      [endpoints.addAddress, { body: { coin: "USDT", network: "TRC20", address: "x".repeat(500), label: "x" } }],
      [endpoints.addAddress, { body: { coin: "USDT", network: "TRC20", address: TRON, label: "x", memo: 5 } }],
      [endpoints.addAddress, { body: "not json" }],
      [endpoints.deleteAddress, { params: { addressId: "99999999999999999999999" } }],
      [endpoints.addressWhitelist, { body: { enabled: "yes", code: "123456" } }],
    ] as const) {
      const answer = await client.callUnchecked(endpoint, input as never, as("bob"));
      expect(answer.status, JSON.stringify(input)).toBeLessThan(500);
      expect(answer.status).toBeGreaterThanOrEqual(400);
    }
  });
});
