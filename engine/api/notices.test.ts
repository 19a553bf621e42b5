import type { FastifyInstance } from "fastify";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endpoints } from "../../protocol/endpoints";
import { buildApp } from "../app";
import { DurableCore } from "../journal/durable-core";
import { noticeProduct } from "../notices/notice-product";
import { spotProduct } from "../spot/spot-product";
import { SpotService } from "../spot/spot-service";
import { ApiClient, type Caller } from "../testing/api-client";
import { lastMailedCode, registerAndLogIn, TEST_ADMIN_TOKEN } from "../testing/api-members";
import { openTestStore, testStoreKinds, type TestStore } from "../testing/test-stores";
import { createServices } from "./context";

/**
 * A member's notifications over the API (decision 031): the list and unread count in the
 * request's language, the stack's newest since an id, marking read; each member their own only;
 * a KYC decision and a security change notify as the core's events do.
 */
describe.each(testStoreKinds())("notifications API on %s", (kind) => {
  let store: TestStore;
  let app: FastifyInstance;
  let durable: DurableCore;
  let spot: SpotService;
  let client: ApiClient;
  const members: Record<string, { token: string; email: string; uid: string; id: string }> = {};
  const as = (name: string, lang?: string): Caller => ({ token: members[name]!.token, ...(lang ? { lang } : {}) });
  const admin: Caller = { admin: TEST_ADMIN_TOKEN };
  let now = Date.now();
  let n = 0;

  beforeAll(async () => {
    store = await openTestStore(kind);
    await sql`insert into market_symbol (symbol_name, coin_symbol, quote_symbol, price_scale, amount_scale, tick_size, lot_size, min_quantity)
              values ('BTC/USDT', 'BTC', 'USDT', 2, 6, 0.01, 0.000001, 0.00001)`.execute(store.db);
    durable = await DurableCore.start({
      db: store.db,
      products: [spotProduct, noticeProduct()],
      onFatal: (e) => {
        throw e;
      },
    });
    spot = new SpotService(durable, { newOrderId: () => `na-${kind}-${++n}` });
    app = await buildApp({
      store,
      apiHead: "mjkj-web",
      spot,
      services: createServices({ devMailbox: true, siteName: async () => "Meridian", adminToken: TEST_ADMIN_TOKEN, now: () => now }),
    });
    await app.ready();
    client = new ApiClient(app);
    for (const name of ["alice", "bob"]) {
      const email = `${name}-notice-${kind}@example.com`;
      const { uid, token } = await registerAndLogIn(app, email, `device-notice-${name}`);
      const id = (await store.db.selectFrom("member").select("id").where("uid", "=", uid).executeTakeFirstOrThrow()).id;
      members[name] = { token, email, uid, id };
      expect(await durable.funds.deposit(id, "USDT", "spot", "100000", `na-usdt-${name}`)).toBe(true);
      expect(await durable.funds.deposit(id, "BTC", "spot", "10", `na-btc-${name}`)).toBe(true);
    }
  });
  afterAll(async () => {
    await app?.close();
    await durable?.drain();
    await store?.dispose();
  });

  /** Bob rests a sell, Alice buys it: both orders are filled. */
  const fill = async () => {
    await spot.placeOrder(members.bob!.id, { symbol: "BTC/USDT", side: "sell", type: "limit", price: "60000", quantity: "0.001", tif: "GTC" }, null);
    return spot.placeOrder(members.alice!.id, { symbol: "BTC/USDT", side: "buy", type: "market", quantity: "0.001", tif: "IOC" }, null);
  };
  const list = (name: string, query: Record<string, string> = {}, lang?: string) => client.data(endpoints.noticeList, { query }, as(name, lang));
  const unread = (name: string, after?: string) => client.data(endpoints.noticeUnread, { query: after ? { after } : {} }, as(name));

  it("lists a member's fills, newest first, in the request's language, right after the answer", async () => {
    expect(await list("alice")).toMatchObject({ records: [], total: 0, unread: 0 });
    expect(await unread("alice")).toEqual({ unread: 0, lastId: null, latest: [] });
    const order = await fill();
    // No wait for the projection on the caller's side: the list waits for the member's rows.
    const page = await list("alice");
    expect(page).toMatchObject({ total: 1, unread: 1, current: 1, pages: 1 });
    expect(page.records[0]).toMatchObject({
      type: "order_filled",
      serviceType: "spot",
      orderCode: order.orderId,
      content: "Your buy order on BTC/USDT was filled.",
      isNew: true,
      changeUser: "system",
    });
    expect((await list("bob", {}, "de")).records[0]).toMatchObject({ content: "Ihre Verkaufsorder für BTC/USDT wurde vollständig ausgeführt." });
    expect((await list("alice", {}, "zh_cn")).records[0]!.content).toBe("您在 BTC/USDT 的买入委托已全部成交。");
  });

  it("gives the stack the newest four unread after an id, oldest first", async () => {
    const { lastId } = await unread("alice");
    for (let i = 0; i < 5; i++) await fill();
    const answer = await unread("alice", lastId!);
    expect(answer.unread).toBe(6);
    expect(answer.latest).toHaveLength(4);
    const ids = answer.latest.map((l) => Number(l.id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(answer.lastId).toBe(answer.latest.at(-1)!.id);
    expect((await unread("alice", answer.lastId!)).latest).toEqual([]);
  });

  it("marks read one member's own only; another's ids change nothing", async () => {
    const bobs = await list("bob");
    const alices = await list("alice");
    // Alice names Bob's notifications: nothing of Bob's changes.
    expect(await client.data(endpoints.noticeRead, { body: { ids: bobs.records.map((r) => r.id) } }, as("alice"))).toEqual({ unread: alices.unread });
    expect((await list("bob")).unread).toBe(bobs.unread);
    expect(await client.data(endpoints.noticeRead, { body: { ids: [alices.records[0]!.id] } }, as("alice"))).toEqual({ unread: alices.unread - 1 });
    expect((await list("alice")).records[0]!.isNew).toBe(false);
    expect((await list("alice", { unread: "1" })).total).toBe(alices.unread - 1);
    expect(await client.data(endpoints.noticeRead, { body: { all: true } }, as("alice"))).toEqual({ unread: 0 });
    expect((await list("bob")).unread).toBe(bobs.unread);
  });

  it("refuses bad input with a 400 that names it, and a visitor with a 401", async () => {
    const read = (body: unknown) => client.callUnchecked(endpoints.noticeRead, { body }, as("alice"));
    expect(await read({ ids: ["abc"] })).toMatchObject({ code: 400, msg: expect.stringContaining("must be the id of a notification") });
    expect(await read({})).toMatchObject({ code: 400, msg: expect.stringContaining("must name 1 to 100 notification ids, or all") });
    expect(await read({ ids: ["1"], all: true })).toMatchObject({ code: 400 });
    expect(await read({ ids: [] })).toMatchObject({ code: 400 });
    expect(await client.callUnchecked(endpoints.noticeList, { query: { pageSize: "1000" } }, as("alice"))).toMatchObject({ code: 400 });
    expect(await client.callUnchecked(endpoints.noticeUnread, { query: { after: "x" } }, as("alice"))).toMatchObject({ code: 400 });
    expect(await client.call(endpoints.noticeList, {})).toMatchObject({ code: 401 });
  });

  it("tells of a KYC decision and a security change, written with the change", async () => {
    const alice = members.alice!;
    const uploads = await store.db
      .insertInto("upload")
      .values([1, 2, 3].map((i) => ({ member_id: alice.id, purpose: "kyc", stored_name: `x${i}.png`, mime: "image/png", size: 1, sha256: `${i}` })))
      .returning("id")
      .execute();
    await store.db
      .insertInto("kyc_submission")
      .values({
        member_id: alice.id,
        front_upload_id: uploads[0]!.id,
        back_upload_id: uploads[1]!.id,
        hand_upload_id: uploads[2]!.id,
        phone: "+4915112345678",
        status: 1,
        submitted_at: new Date(),
      })
      .execute();
    expect((await client.call(endpoints.adminKycReview, { body: { uid: alice.uid, decision: "reject", reason: "The photo is blurred." } }, admin)).code).toBe(
      200,
    );

    now += 61_000;
    await client.data(endpoints.sendEmailCode, { query: { email: alice.email, type: "security" } }, as("alice"));
    const code = await lastMailedCode(client, alice.email, admin);
    await client.data(endpoints.antiCode, { body: { antiCode: "Falcon7", code } }, as("alice"));

    const page = await list("alice", { unread: "1" });
    expect(page.records.map((r) => [r.type, r.serviceType, r.changeUser, r.content])).toEqual([
      ["security_anti_code", "security", "self", "Your anti-phishing code was changed."],
      ["kyc_rejected", "kyc", "operator", "Your identity verification was rejected. Reason: The photo is blurred."],
    ]);
    expect(page.records.every((r) => r.orderCode === null)).toBe(true);
  });
});
