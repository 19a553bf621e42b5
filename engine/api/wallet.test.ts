import type { FastifyInstance } from "fastify";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endpoints } from "../../protocol/endpoints";
import { buildApp } from "../app";
import { isValidAddress } from "../core/wallet/address-formats";
import { deriveAddress, keyFingerprint, PUBLIC_TEST_DEPOSIT_KEYS, PUBLIC_TEST_XRP_ADDRESS } from "../core/wallet/deposit-keys";
import { WalletService } from "../wallet/wallet-service";
import { ApiClient } from "../testing/api-client";
import { registerAndLogIn, TEST_ADMIN_TOKEN } from "../testing/api-members";
import { openTestStore, testStoreKinds, type TestStore } from "../testing/test-stores";
import { createServices } from "./context";

describe.each(testStoreKinds())("wallet API (coins, networks, deposit addresses) on %s", (kind) => {
  let store: TestStore;
  let app: FastifyInstance;
  let client: ApiClient;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    store = await openTestStore(kind);
    app = await buildApp({
      store,
      apiHead: "mjkj-web",
      services: createServices({ devMailbox: true, siteName: async () => "Meridian", adminToken: TEST_ADMIN_TOKEN }),
    });
    await app.ready();
    client = new ApiClient(app);
    for (const name of ["alice", "bob"]) {
      tokens[name] = (await registerAndLogIn(app, `${name}-wallet-${kind}@example.com`, `device-${name}`)).token;
    }
  });
  afterAll(async () => {
    await app?.close();
    await store?.dispose();
  });

  const address = (name: string | null, coin: string, network: string, lang = "en") =>
    client.call(endpoints.getDepositAddressWithNotEncrypt, { params: { coin }, query: { network } }, { token: name ? tokens[name] : undefined, lang });
  const addressOf = async (name: string, coin: string, network: string) => {
    const answer = await address(name, coin, network);
    expect(answer.success, answer.msg).toBe(true);
    return answer.data!;
  };

  it("lists the coins and their networks' rules to anyone, in the configured order", async () => {
    const coins = await client.data(endpoints.getRechargeCurrency);
    expect(coins.map((c) => c.coin)).toEqual(["BTC", "ETH", "USDT", "TRX", "DOGE", "XRP", "SOL"]);
    const btc = coins[0]!.networks[0]!;
    expect(btc).toMatchObject({
      network: "BTC",
      chain: "bitcoin",
      contract: null,
      needsTag: false,
      decimals: 8,
      confirmations: 2,
      withdrawFee: "0.0002",
      minWithdraw: "0.001",
    });
    const usdt = coins.find((c) => c.coin === "USDT")!;
    expect(usdt.networks.map((n) => n.network)).toEqual(["ERC20", "TRC20", "SOL"]);
    expect(usdt.networks[1]).toMatchObject({
      chain: "tron",
      contract: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t",
      decimals: 6,
      withdrawFee: "1",
      depositEnabled: true,
    });
    expect(usdt.networks[2]).toMatchObject({ depositEnabled: false, withdrawEnabled: false });
    expect(coins.find((c) => c.coin === "XRP")!.networks[0]).toMatchObject({ needsTag: true });
    // SOL's addresses come from custody's pool (decision 042); USDT on SOL stays off.
    expect(coins.find((c) => c.coin === "SOL")!.networks[0]).toMatchObject({ depositEnabled: true, withdrawEnabled: true });
  });

  it("gives a member an address of each chain's format, with the network's confirmations and minimum", async () => {
    const btc = await addressOf("alice", "BTC", "BTC");
    expect(btc).toMatchObject({ coin: "BTC", network: "BTC", tag: null, confirmations: 2, minDeposit: "0.0001" });
    expect(btc.address).toMatch(/^bc1q/);
    expect(isValidAddress("bitcoin", btc.address)).toBe(true);
    const eth = await addressOf("alice", "ETH", "ERC20");
    expect(isValidAddress("evm", eth.address)).toBe(true);
    expect(eth.address).not.toBe(eth.address.toLowerCase()); // EIP-55 spelling
    // Every ERC20 coin of a member arrives at the member's one address on that network.
    expect((await addressOf("alice", "USDT", "ERC20")).address).toBe(eth.address);
    const tron = await addressOf("alice", "USDT", "TRC20");
    expect(isValidAddress("tron", tron.address)).toBe(true);
    expect((await addressOf("alice", "TRX", "TRC20")).address).toBe(tron.address);
    const doge = await addressOf("alice", "DOGE", "DOGE");
    expect(isValidAddress("dogecoin", doge.address)).toBe(true);
    const xrp = await addressOf("alice", "XRP", "XRP");
    expect(xrp.address).toBe(PUBLIC_TEST_XRP_ADDRESS);
    expect(xrp.tag).toBeGreaterThan(100_000);
  });

  it("answers the same address every time, also to concurrent first calls, and another to another member", async () => {
    const first = await Promise.all(Array.from({ length: 6 }, () => address("bob", "DOGE", "DOGE")));
    expect(new Set(first.map((a) => a.data?.address)).size).toBe(1);
    const bobDoge = first[0]!.data!;
    expect((await addressOf("bob", "DOGE", "DOGE")).address).toBe(bobDoge.address);
    expect((await addressOf("alice", "DOGE", "DOGE")).address).not.toBe(bobDoge.address);
    for (const [coin, network] of [
      ["BTC", "BTC"],
      ["ETH", "ERC20"],
      ["USDT", "TRC20"],
    ] as const) {
      const a = await addressOf("alice", coin, network);
      expect(await addressOf("alice", coin, network)).toEqual(a);
      expect((await addressOf("bob", coin, network)).address).not.toBe(a.address);
    }
    const xrpA = await addressOf("alice", "XRP", "XRP");
    const xrpB = await addressOf("bob", "XRP", "XRP");
    expect(xrpB.address).toBe(xrpA.address);
    expect(xrpB.tag).not.toBe(xrpA.tag);
    expect((await addressOf("bob", "XRP", "XRP")).tag).toBe(xrpB.tag);
    // One stored row per member and network, which is what the deposit watcher looks up.
    const rows = await store.db.selectFrom("deposit_address").select(["network", "member_id"]).where("network", "=", "DOGE").execute();
    expect(rows).toHaveLength(2);
  });

  it("refuses a visitor without a token", async () => {
    const answer = await address(null, "BTC", "BTC");
    expect(answer).toMatchObject({ status: 401, success: false, reason: "UNAUTHORIZED" });
  });

  it("refuses a coin not carried on the network, and an unknown coin, with a localized 400 and its reason", async () => {
    for (const [coin, network] of [
      ["BTC", "ERC20"],
      ["NOPE", "BTC"],
      ["USDT", "BEP20"],
    ] as const) {
      const answer = await address("alice", coin, network, "de");
      expect(answer, `${coin} ${network}`).toMatchObject({ status: 400, success: false, reason: "DEPOSIT_NETWORK_UNKNOWN" });
      expect(answer.msg).toContain(network);
      expect(answer.msg).toContain("Netzwerk");
    }
    const bad = await client.callUnchecked(
      endpoints.getDepositAddressWithNotEncrypt,
      { params: { coin: "BTC" }, query: { network: "erc-20" } },
      { token: tokens.alice },
    );
    expect(bad).toMatchObject({ status: 400, reason: "VALIDATION" });
    const missing = await client.callUnchecked(endpoints.getDepositAddressWithNotEncrypt, { params: { coin: "BTC" }, query: {} }, { token: tokens.alice });
    expect(missing).toMatchObject({ status: 400, reason: "VALIDATION" });
  });

  it("refuses a network whose deposits are switched off, and hands out nothing", async () => {
    expect(await address("alice", "USDT", "SOL", "fr")).toMatchObject({ status: 400, reason: "DEPOSIT_DISABLED" });
    await sql`update coin_network set deposit_enabled = false where coin = 'BTC' and network = 'BTC'`.execute(store.db);
    try {
      const answer = await address("bob", "BTC", "BTC");
      expect(answer).toMatchObject({ status: 400, reason: "DEPOSIT_DISABLED" });
      expect(answer.msg).toBe("Deposits of BTC on the BTC network are switched off at the moment.");
    } finally {
      await sql`update coin_network set deposit_enabled = true where coin = 'BTC' and network = 'BTC'`.execute(store.db);
    }
    const sol = await store.db.selectFrom("deposit_address").select("address").where("network", "=", "SOL").execute();
    expect(sol).toEqual([]);
  });

  it("never shows one member's address to another, whatever the parameters say", async () => {
    const alice = await addressOf("alice", "ETH", "ERC20");
    const aliceId = (await store.db.selectFrom("deposit_address").select("member_id").where("address", "=", alice.address).executeTakeFirstOrThrow()).member_id;
    const bob = await addressOf("bob", "ETH", "ERC20");
    const queries: Record<string, string>[] = [
      { network: "ERC20", memberId: aliceId },
      { network: "ERC20", userId: aliceId, uid: aliceId, member_id: aliceId },
    ];
    for (const query of queries) {
      const answer = await client.callUnchecked(endpoints.getDepositAddressWithNotEncrypt, { params: { coin: "ETH" }, query }, { token: tokens.bob });
      expect(answer.data?.address ?? null).not.toBe(alice.address);
      if (answer.success) expect(answer.data!.address).toBe(bob.address);
    }
    // Another member's address as the "coin" is no way in either.
    const byAddress = await client.callUnchecked(
      endpoints.getDepositAddressWithNotEncrypt,
      { params: { coin: alice.address }, query: { network: "ERC20" } },
      { token: tokens.bob },
    );
    expect(byAddress).toMatchObject({ status: 400 });
    expect(JSON.stringify(byAddress)).not.toContain(alice.address.slice(2));
  });

  it("keeps the addresses handed out when the xpub changes; members without one get the new key's", async () => {
    // BIP32 test vector 2's master key.
    const other = "xpub661MyMwAqRbcFW31YEwpkMuc5THy2PSt5bDMsktWQcFF8syAmRUapSCGu8ED9W6oDMSgv6Zz8idoc4a6mr8BDzTJY47LJhkJ8UB7WEGuduB";
    const rotated = new WalletService(store.db, { ...PUBLIC_TEST_DEPOSIT_KEYS, xpubs: { ...PUBLIC_TEST_DEPOSIT_KEYS.xpubs, bitcoin: other } });
    const alice = await addressOf("alice", "BTC", "BTC");
    const { member_id: aliceId } = await store.db
      .selectFrom("deposit_address")
      .select("member_id")
      .where("network", "=", "BTC")
      .where("address", "=", alice.address)
      .executeTakeFirstOrThrow();
    expect((await rotated.depositAddress(aliceId, "BTC", "BTC", Date.now())).address).toBe(alice.address);

    const carol = (await registerAndLogIn(app, `carol-wallet-${kind}@example.com`, "device-carol")).token;
    const { member_id: carolId } = await store.db
      .selectFrom("device_session")
      .select("member_id")
      .where("device_id", "=", "device-carol")
      .executeTakeFirstOrThrow();
    expect(carol).toBeTruthy();
    const fresh = await rotated.depositAddress(carolId, "BTC", "BTC", Date.now());
    expect(fresh.address).toBe(deriveAddress("bitcoin", other, Number(carolId)));
    const rows = await store.db.selectFrom("deposit_address").select(["member_id", "key_fingerprint"]).where("network", "=", "BTC").execute();
    expect(rows.find((r) => r.member_id === aliceId)?.key_fingerprint).toBe(keyFingerprint(PUBLIC_TEST_DEPOSIT_KEYS.xpubs.bitcoin));
    expect(rows.find((r) => r.member_id === carolId)?.key_fingerprint).toBe(keyFingerprint(other));
  });
});
