import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DurableCore } from "../journal/durable-core";
import { KEY_REUSED } from "../journal/idempotency";
import { openTestStore, testStoreKinds, type TestStore } from "../testing/test-stores";
import { withdrawalProduct } from "./withdrawal-product";
import { WithdrawalService, type WithdrawalRequest } from "./withdrawal-service";
import { testAct } from "../testing/operator-act";

/**
 * Withdrawals through the durable layer: journaled steps, rows behind the answer, retries that
 * act once, and open withdrawals that survive a restart from a snapshot and from the tables.
 */
describe.each(testStoreKinds())("withdrawals through the journal on %s", (kind) => {
  let store: TestStore;
  let durable: DurableCore;
  let service: WithdrawalService;
  let n = 0;
  const start = async (snapshots = true) => {
    durable = await DurableCore.start({
      db: store.db,
      products: [withdrawalProduct],
      snapshots,
      onFatal: (e) => {
        throw e;
      },
    });
    service = new WithdrawalService(durable, { newId: () => `w-${kind}-${++n}` });
  };
  const usdt = (memberId: string) => durable.funds.balances(memberId, "funding").find((b) => b.coin === "USDT")!;
  const toAddress: WithdrawalRequest = { coin: "USDT", network: "TRC20", address: "TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL", amount: "100", fee: "1" };

  beforeAll(async () => {
    store = await openTestStore(kind);
    await start();
    expect(await durable.funds.deposit("1", "USDT", "funding", "500", "dep-w-1")).toBe(true);
  });
  afterAll(async () => {
    await durable?.drain();
    await store?.dispose();
  });

  it("holds the amount and fee at once; a retry with the key acts once; a reused key is refused", async () => {
    const first = await service.request("1", toAddress, "key-w-1");
    expect(first).toEqual({ code: "OK", id: `w-${kind}-1`, state: "review" });
    expect(usdt("1")).toEqual({ coin: "USDT", available: "399", frozen: "101" });
    expect(await service.request("1", toAddress, "key-w-1")).toEqual(first);
    expect(await service.request("1", { ...toAddress, amount: "50" }, "key-w-1")).toMatchObject({ code: KEY_REUSED, id: null });
    expect(usdt("1")).toEqual({ coin: "USDT", available: "399", frozen: "101" });
    expect(await service.request("1", { ...toAddress, amount: "1000" }, "key-w-2")).toMatchObject({ code: "RISK_INSUFFICIENT_AVAILABLE" });

    const mine = await service.ofMember("1", { pageNo: 1, pageSize: 10 });
    expect(mine.total).toBe(1);
    expect(mine.records[0]).toMatchObject({
      id: first.id,
      coin: "USDT",
      network: "TRC20",
      address: toAddress.address,
      amount: "100",
      fee: "1",
      state: "review",
    });
    expect((await service.ofMember("2", { pageNo: 1, pageSize: 10 })).total).toBe(0);
  });

  it("moves through review: another member cannot cancel it, the operator approves, a cancel is then too late; broadcast pays out", async () => {
    const id = `w-${kind}-1`;
    expect(await service.cancel("2", id)).toBe("WITHDRAWAL_UNKNOWN");
    expect(await service.review(id, "approve", undefined, testAct())).toBe("OK");
    expect(await service.cancel("1", id)).toBe("WITHDRAWAL_WRONG_STATE");
    expect(await service.inState("approved")).toEqual([expect.objectContaining({ id, state: "approved" })]);
    expect(await service.broadcast(id, "ab".repeat(32))).toBe("OK");
    expect(usdt("1")).toEqual({ coin: "USDT", available: "399", frozen: "0" });
    expect(await service.complete(id)).toBe("OK");
    expect(await service.complete(id)).toBe("WITHDRAWAL_UNKNOWN");
    const [row] = (await service.ofMember("1", { pageNo: 1, pageSize: 10 })).records;
    expect(row).toMatchObject({ id, state: "completed", txid: "ab".repeat(32) });
  });

  it("cancelled and rejected ones give the money back and keep the reason", async () => {
    const cancelled = await service.request("1", toAddress, "key-w-3");
    expect(await service.cancel("1", cancelled.id!)).toBe("OK");
    const rejected = await service.request("1", toAddress, "key-w-4");
    expect(await service.review(rejected.id!, "reject", "The address belongs to a sanctioned service.", testAct())).toBe("OK");
    expect(usdt("1")).toEqual({ coin: "USDT", available: "399", frozen: "0" });
    const rows = (await service.ofMember("1", { pageNo: 1, pageSize: 10 })).records;
    expect(rows.slice(0, 2).map((r) => [r.state, r.reason])).toEqual([
      ["rejected", "The address belongs to a sanctioned service."],
      ["cancelled", null],
    ]);
  });

  it("keeps open withdrawals across a restart from a snapshot and from the tables", async () => {
    const inReview = await service.request("1", { ...toAddress, amount: "10" }, "key-w-5");
    const approved = await service.request("1", { ...toAddress, amount: "20" }, "key-w-6");
    await service.review(approved.id!, "approve", undefined, testAct());
    await durable.writeSnapshot();
    const live = durable.core.stateHash();
    await durable.drain();

    await start();
    expect(durable.restoredFrom.source).toBe("snapshot");
    expect(durable.core.stateHash()).toBe(live);
    await durable.drain();
    await start(false);
    expect(durable.restoredFrom.source).toBe("tables");
    expect(durable.core.stateHash()).toBe(live);

    expect(await service.cancel("1", approved.id!)).toBe("WITHDRAWAL_WRONG_STATE");
    expect(await service.cancel("1", inReview.id!)).toBe("OK");
    expect(await service.broadcast(approved.id!, "cd".repeat(32))).toBe("OK");
    expect(usdt("1")).toEqual({ coin: "USDT", available: "378", frozen: "0" });
  });
});
