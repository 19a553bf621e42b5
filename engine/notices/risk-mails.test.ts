import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DurableCore } from "../journal/durable-core";
import { seedPledge } from "../loans/pledge-config";
import { pledgeProduct } from "../loans/pledge-product";
import { PledgeService } from "../loans/pledge-service";
import { createMember } from "../members/new-member";
import { seedDemoMarkets } from "../sim/demo-markets";
import { spotProduct } from "../spot/spot-product";
import { openTestStore, type TestStore } from "../testing/test-stores";
import { riskMailProduct } from "./risk-mails";

/** The e-mails of a money-at-risk notice (issue 31): a loan's margin call and its liquidation mail the member once each, in their language. */
describe("risk e-mails", () => {
  let store: TestStore;
  let durable: DurableCore;
  let clock = Date.UTC(2026, 10, 3, 10, 0, 0);
  beforeAll(async () => {
    store = await openTestStore("pglite");
    await seedDemoMarkets(store.db);
    await seedPledge(store.db);
    durable = await DurableCore.start({
      db: store.db,
      products: [spotProduct, pledgeProduct, riskMailProduct()],
      now: () => clock,
      onFatal: (e) => {
        throw e;
      },
    });
  });
  afterAll(async () => {
    await durable?.drain();
    await store.dispose();
  });

  const trade = async (price: string, id: string) => {
    for (const side of ["sell", "buy"] as const)
      expect(
        (
          await durable.execute({
            type: "spot.place",
            memberId: side === "sell" ? "7001" : "7002",
            orderId: `${id}-${side}`,
            symbol: "BTC/USDT",
            side,
            orderType: "limit",
            tif: side === "sell" ? "GTC" : "IOC",
            price,
            quantity: "0.001",
          })
        ).code,
      ).toBe("OK");
  };

  it("mails a margin call once and a liquidation once, in German for a German reader, with the anti-phishing line", async () => {
    const { id } = await createMember(store.db, { account: { email: "risk-de@example.com" }, password: null }, clock);
    await store.db.updateTable("member").set({ lang: "de", anti_code: "Roter-Fuchs" }).where("id", "=", id).execute();
    await durable.funds.deposit("7001", "BTC", "spot", "1", "rm-btc");
    await durable.funds.deposit("7002", "USDT", "spot", "500000", "rm-usdt");
    await trade("60000", "t1");
    await durable.funds.deposit(id, "BTC", "funding", "1", "rm-member");
    const loans = new PledgeService(durable);
    const { code, loanId } = await loans.borrow(id, { productId: "USDT-BTC-0", amount: "38000", collateral: "1" }, "rm-borrow");
    expect(code).toBe("OK");
    await trade("46000", "t2");
    for (let i = 0; i < 2; i++) {
      clock += 1_000;
      await loans.tick(clock);
    }
    await durable.execute({
      type: "spot.place",
      memberId: "7002",
      orderId: "bid",
      symbol: "BTC/USDT",
      side: "buy",
      orderType: "limit",
      tif: "GTC",
      price: "41000",
      quantity: "1",
    });
    await trade("41500", "t3");
    clock += 1_000;
    await loans.tick(clock);
    await durable.drain();
    const mails = await store.db
      .selectFrom("outbox_message")
      .select(["subject", "body"])
      .where("destination", "=", "risk-de@example.com")
      .orderBy("id")
      .execute();
    expect(mails.map((m) => m.subject)).toEqual(["Margin Call für deinen Krypto-Kredit", "Dein Krypto-Kredit wurde liquidiert"]);
    expect(mails[0]!.body.split("\n")[0]).toContain("Roter-Fuchs");
    expect(mails[0]!.body).toContain(`Dein Kredit ${loanId} hat mit`);
  });
});
