import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endpoints } from "../../../protocol/endpoints";
import { createServices } from "../../api/context";
import { buildApp } from "../../app";
import { SimulatedChains } from "../../chain/simulated-chain";
import { DurableCore } from "../../journal/durable-core";
import { MemberPushes } from "../../realtime/member-pushes";
import { spotProduct } from "../../spot/spot-product";
import { SpotService } from "../../spot/spot-service";
import { ApiClient, type Caller } from "../../testing/api-client";
import { registerAndLogIn, TEST_ADMIN_TOKEN } from "../../testing/api-members";
import { openTestStore, testStoreKinds, type TestStore } from "../../testing/test-stores";
import { WalletService } from "../wallet-service";
import { depositId, DepositWatcher } from "./deposit-watcher";

/**
 * The deposit watcher over the simulated chains (decision 027): confirmations, one credit per
 * (chain, txid, index) whatever the chain reports and across restarts, re-orgs, minimums, and the
 * member's deposit history.
 */
describe.each(testStoreKinds())("deposits from the chains on %s", (kind) => {
  let store: TestStore;
  let durable: DurableCore;
  let chains: SimulatedChains;
  let watcher: DepositWatcher;
  let app: FastifyInstance;
  let client: ApiClient;
  const warnings: string[] = [];
  const pushes: string[] = [];
  const members: Record<string, { token: string; id: string; btc: string; doge: string; eth: string }> = {};
  const as = (name: string): Caller => ({ token: members[name]!.token });
  const btc = (name: string) => durable.funds.balances(members[name]!.id, "funding").find((b) => b.coin === "BTC")!.available;
  const startDurable = async () => {
    durable = await DurableCore.start({
      db: store.db,
      products: [spotProduct],
      onFatal: (e) => {
        throw e;
      },
    });
    watcher = new DepositWatcher({ durable, gateway: chains, warn: (m) => warnings.push(m) });
    new MemberPushes(durable).startPublishing((topic) => pushes.push(topic));
  };
  const row = (id: string) => store.db.selectFrom("wallet_deposit").selectAll().where("id", "=", id).executeTakeFirst();
  const payBtc = async (name: string, amount: string) => {
    const paid = await chains.pay({ network: "BTC", toAddress: members[name]!.btc, asset: "BTC", amount });
    return depositId("bitcoin", paid.txid, paid.index);
  };

  beforeAll(async () => {
    store = await openTestStore(kind);
    chains = await SimulatedChains.start({ db: store.db, autoMine: false, reorgProbability: 0, seed: 11 });
    await startDurable();
    app = await buildApp({
      store,
      apiHead: "mjkj-web",
      spot: new SpotService(durable),
      services: createServices({ devMailbox: true, siteName: async () => "Meridian", adminToken: TEST_ADMIN_TOKEN }),
    });
    await app.ready();
    client = new ApiClient(app);
    const wallet = new WalletService(store.db);
    for (const name of ["alice", "bob"]) {
      const { uid, token } = await registerAndLogIn(app, `${name}-dep-${kind}@example.com`, `device-dep-${name}`);
      const id = String((await store.db.selectFrom("member").select("id").where("uid", "=", uid).executeTakeFirstOrThrow()).id);
      const btcAddress = (await wallet.depositAddress(id, "BTC", "BTC", Date.now())).address;
      const dogeAddress = (await wallet.depositAddress(id, "DOGE", "DOGE", Date.now())).address;
      const ethAddress = (await wallet.depositAddress(id, "ETH", "ERC20", Date.now())).address;
      members[name] = { token, id, btc: btcAddress, doge: dogeAddress, eth: ethAddress };
    }
    // The first pass sets each chain's bookmark at its tip.
    await watcher.pass();
  });
  afterAll(async () => {
    await watcher?.stop();
    await chains?.close();
    await app?.close();
    await durable?.drain();
    await store?.dispose();
  });

  it("sees a deposit in a block, counts its confirmations, credits it once to the funding account", async () => {
    const id = await payBtc("alice", "0.5");
    await watcher.pass();
    expect(await row(id)).toBeUndefined(); // in the mempool: not in a block yet

    await chains.mine("bitcoin");
    const [first] = (await watcher.pass()).filter((r) => r.chain === "bitcoin");
    expect(first).toMatchObject({ read: 1, recorded: 1, credited: [] });
    expect(await row(id)).toMatchObject({ state: "confirming", confirmations: 1, required: 2, member_id: members.alice!.id, coin: "BTC", network: "BTC" });
    expect(btc("alice")).toBe("0");

    await chains.mine("bitcoin");
    pushes.length = 0;
    const [second] = (await watcher.pass()).filter((r) => r.chain === "bitcoin");
    expect(second!.credited).toEqual([id]);
    // The credit is a journaled ledger.deposit: the member's balances are pushed like after any ledger change.
    expect(pushes).toEqual([`refresh_${members.alice!.id}`]);
    expect(await row(id)).toMatchObject({ state: "credited", confirmations: 2 });
    expect(btc("alice")).toBe("0.5");

    // More passes and blocks, and the chain reporting the block again (the bookmark set back): once.
    await chains.mine("bitcoin", 2);
    await watcher.pass();
    const height = Number((await row(id))!.block_height);
    const block = (await chains.node("bitcoin").blockAt(height - 1))!;
    await store.db
      .updateTable("deposit_watch")
      .set({ height: String(block.height), hash: block.hash })
      .where("chain", "=", "bitcoin")
      .execute();
    const [again] = (await watcher.pass()).filter((r) => r.chain === "bitcoin");
    expect(again).toMatchObject({ read: 4, recorded: 1, credited: [] });
    expect(await row(id)).toMatchObject({ state: "credited" });
    expect(btc("alice")).toBe("0.5");
    expect(pushes).toEqual([`refresh_${members.alice!.id}`]);
    await durable.projectedAll();
    expect(await store.db.selectFrom("ledger_transfer").select("id").where("id", "=", id).execute()).toHaveLength(1);
  });

  it("drops a deposit whose block a re-org orphaned before it was credited, and credits it once when it comes back", async () => {
    const id = await payBtc("alice", "0.25");
    await chains.mine("bitcoin");
    await watcher.pass();
    expect(await row(id)).toMatchObject({ state: "confirming", confirmations: 1 });

    const reorg = await chains.reorg("bitcoin", 1, () => false); // back to the mempool
    expect(reorg.returned).toHaveLength(1);
    const [after] = (await watcher.pass()).filter((r) => r.chain === "bitcoin");
    expect(after!.reorgTo).toBe(reorg.replaced[0]!.height - 1);
    expect(await row(id)).toMatchObject({ state: "dropped", block_height: null, confirmations: 0 });
    expect(btc("alice")).toBe("0.5");

    await chains.mine("bitcoin");
    await watcher.pass();
    expect(await row(id)).toMatchObject({ state: "confirming", confirmations: 1 });
    await chains.mine("bitcoin", 3);
    await watcher.pass();
    await watcher.pass();
    expect(await row(id)).toMatchObject({ state: "credited" });
    expect(btc("alice")).toBe("0.75");
  });

  it("never credits a deposit double-spent by a re-org", async () => {
    const id = await payBtc("bob", "1");
    await chains.mine("bitcoin");
    await watcher.pass();
    await chains.reorg("bitcoin", 1, () => true);
    await chains.mine("bitcoin", 3);
    await watcher.pass();
    expect(await row(id)).toMatchObject({ state: "dropped" });
    expect(btc("bob")).toBe("0");
  });

  it("credits once across a restart during confirmations", async () => {
    const id = await payBtc("bob", "0.1");
    await chains.mine("bitcoin");
    await watcher.pass();
    expect(await row(id)).toMatchObject({ state: "confirming" });

    await durable.drain();
    await startDurable(); // a new durable layer and watcher on the same database
    await chains.mine("bitcoin");
    const [report] = (await watcher.pass()).filter((r) => r.chain === "bitcoin");
    expect(report!.credited).toEqual([id]);
    expect(btc("bob")).toBe("0.1");
  });

  it("credits once when the engine stopped between the credit and the row's update", async () => {
    const id = await payBtc("bob", "0.2");
    await chains.mine("bitcoin");
    await watcher.pass();
    // What the watcher would have done just before a crash: the credit, without its row's update.
    expect(await durable.funds.deposit(members.bob!.id, "BTC", "funding", "0.2", id)).toBe(true);
    await durable.drain();
    await startDurable();
    await chains.mine("bitcoin");
    const [report] = (await watcher.pass()).filter((r) => r.chain === "bitcoin");
    expect(report!.credited).toEqual([]); // nothing new: it was credited already
    expect(await row(id)).toMatchObject({ state: "credited" });
    expect(btc("bob")).toBe("0.3");
    expect(warnings).toEqual([]);
  });

  it("records deposits below the minimum or with deposits switched off without crediting them; ignores unknown addresses", async () => {
    const small = await payBtc("alice", "0.00005"); // the minimum is 0.0001
    const stranger = await chains.pay({ network: "BTC", toAddress: "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq", asset: "BTC", amount: "3" });
    await store.db.updateTable("coin_network").set({ deposit_enabled: false }).where("coin", "=", "DOGE").execute();
    const doge = await chains.pay({ network: "DOGE", toAddress: members.alice!.doge, asset: "DOGE", amount: "100" });
    await chains.mine("bitcoin", 3);
    await chains.mine("dogecoin", 7);
    await watcher.pass();
    expect(await row(small)).toMatchObject({ state: "below_minimum" });
    expect(await row(depositId("bitcoin", stranger.txid, stranger.index))).toBeUndefined();
    expect(await row(depositId("dogecoin", doge.txid, doge.index))).toMatchObject({ state: "unsupported" });
    expect(btc("alice")).toBe("0.75");
    expect(durable.funds.balances(members.alice!.id, "funding").find((b) => b.coin === "DOGE")!.available).toBe("0");
  });

  it("matches an EVM address however the node spells it, and credits an ERC20 token at the ledger's scale after 12 confirmations", async () => {
    const eth = await chains.pay({ network: "ERC20", toAddress: members.bob!.eth.toLowerCase(), asset: "ETH", amount: "0.123456789123456789" });
    const id = depositId("ethereum", eth.txid, eth.index);
    await chains.mine("ethereum", 11);
    await watcher.pass();
    expect(await row(id)).toMatchObject({ state: "confirming", confirmations: 11, required: 12, member_id: members.bob!.id });
    await chains.mine("ethereum");
    await watcher.pass();
    expect(await row(id)).toMatchObject({ state: "credited", confirmations: 12 });
    // The ledger keeps 8 decimals of ETH: the rest stays on the exchange's address.
    expect(durable.funds.balances(members.bob!.id, "funding").find((b) => b.coin === "ETH")!.available).toBe("0.12345678");
  });

  it("answers a member's own deposits, newest first, with the coin filter; malformed input is a 400", async () => {
    const alice = await client.data(endpoints.myDeposits, { query: {} }, as("alice"));
    expect(alice.records.map((r) => r.coin)).toEqual(["DOGE", "BTC", "BTC", "BTC"]);
    expect(alice.records[0]).toMatchObject({ state: "unsupported", amount: "100", network: "DOGE", confirmationsRequired: 6 });
    expect(alice.records.at(-1)).toMatchObject({ state: "credited", amount: "0.5", confirmations: 2, confirmationsRequired: 2, address: members.alice!.btc });
    expect(alice.total).toBe(4);
    const onlyBtc = await client.data(endpoints.myDeposits, { query: { coin: "BTC", pageSize: "2", pageNo: "2" } }, as("alice"));
    expect(onlyBtc).toMatchObject({ total: 3, pages: 2, current: 2 });
    expect(onlyBtc.records).toHaveLength(1);

    const bob = await client.data(endpoints.myDeposits, { query: {} }, as("bob"));
    expect(bob.records.map((r) => r.coin)).toEqual(["ETH", "BTC", "BTC", "BTC"]);
    expect(bob.records[0]).toMatchObject({ state: "credited", amount: "0.123456789123456789", confirmations: 12, confirmationsRequired: 12 });
    expect(bob.records.slice(1).every((r) => r.address === members.bob!.btc)).toBe(true);

    expect((await client.call(endpoints.myDeposits, { query: {} })).code).toBe(401);
    const malformed: Array<Record<string, string>> = [{ pageNo: "0" }, { pageSize: "1000" }, { coin: "btc; drop" }, { pageNo: "x" }];
    for (const query of malformed) {
      const answer = await client.callUnchecked(endpoints.myDeposits, { query }, as("alice"));
      expect(answer.code).toBe(400);
    }
  });
});
