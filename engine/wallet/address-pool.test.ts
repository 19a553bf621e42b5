import { randomBytes } from "node:crypto";
import * as fc from "fast-check";
import type { FastifyInstance } from "fastify";
import { sql } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { endpoints } from "../../protocol/endpoints";
import { createServices } from "../api/context";
import { buildApp } from "../app";
import { simulatedCustody } from "../chain/simulated-custody";
import { poolAddressProblem } from "../core/wallet/address-pool";
import { Refusal } from "../locales/refusal";
import { ApiClient, type Caller } from "../testing/api-client";
import { registerAndLogIn, TEST_ADMIN_TOKEN } from "../testing/api-members";
import { openTestStore, testStoreKinds, type TestStore } from "../testing/test-stores";
import { AddressPool } from "./address-pool";
import { WalletService } from "./wallet-service";

/**
 * The deposit-address pool of Solana (decision 042): an address is given to one member, once and for
 * good, however many requests arrive at once; an empty pool is the member's translated refusal;
 * custody's file is checked line by line before anything is imported; a low pool is logged.
 */
describe.each(testStoreKinds())("the deposit-address pool on %s", (kind) => {
  let store: TestStore;
  let app: FastifyInstance;
  let client: ApiClient;
  let pool: AddressPool;
  let wallet: WalletService;
  const warnings: string[] = [];
  /** The low-pool warnings' clock: an hour on before each test, so each test sees its first warning. */
  let clock = Date.now();
  const admin: Caller = { admin: TEST_ADMIN_TOKEN };
  let made = 0;

  /** Members straight into the table (the pool cares about their ids only). */
  const newMembers = async (count: number): Promise<string[]> => {
    const rows = Array.from({ length: count }, () => {
      const n = ++made;
      return {
        uid: `AP${kind[0]}${n}`,
        email: `pool-${kind}-${n}@example.com`,
        password_hash: "-",
        invite_code: `APL${kind[0]}${n}`,
        chat_key: randomBytes(16).toString("hex"),
      };
    });
    return (await store.db.insertInto("member").values(rows).returning("id").execute()).map((r) => String(r.id));
  };
  const keyPairs = (count: number) => simulatedCustody.newAddresses("SOL", count);
  const importText = (text: string, firstLine?: number) =>
    client.call(endpoints.adminAddressPoolImport, { body: { network: "SOL", text, ...(firstLine ? { firstLine } : {}) } }, admin);
  const imported = async (addresses: string[]) => {
    const answer = await importText(addresses.join("\n"));
    expect(answer.success, answer.msg).toBe(true);
    return answer.data!;
  };
  const solLevel = async () => (await pool.level("SOL"))[0]!;
  const auditRows = async () =>
    (await store.db.selectFrom("operator_audit").select(["action", "target"]).where("action", "=", "address-pool.import").execute()).length;

  beforeAll(async () => {
    store = await openTestStore(kind);
    pool = new AddressPool(store.db, { lowWater: 3, log: { warn: (_obj, message) => warnings.push(message) }, clock: () => clock });
    wallet = new WalletService(store.db, undefined, pool);
    app = await buildApp({
      store,
      apiHead: "mjkj-web",
      addressPool: pool,
      services: createServices({ devMailbox: true, siteName: async () => "Meridian", adminToken: TEST_ADMIN_TOKEN }),
    });
    await app.ready();
    client = new ApiClient(app);
  });
  afterAll(async () => {
    await app?.close();
    await store?.dispose();
  });
  // Each test starts from an empty pool and no SOL address given out (rows are never deleted otherwise).
  beforeEach(async () => {
    await sql`delete from deposit_address where network = 'SOL'`.execute(store.db);
    await sql`delete from deposit_address_pool`.execute(store.db);
    warnings.length = 0;
    clock += 3600_000;
  });

  it("opens SOL deposits and withdrawals (USDT on SOL stays off: the chains here do not carry it)", async () => {
    const coins = await client.data(endpoints.getRechargeCurrency);
    expect(coins.find((c) => c.coin === "SOL")!.networks).toEqual([
      expect.objectContaining({ network: "SOL", chain: "solana", depositEnabled: true, withdrawEnabled: true, decimals: 9 }),
    ]);
    expect(coins.find((c) => c.coin === "USDT")!.networks.find((n) => n.network === "SOL")).toMatchObject({ depositEnabled: false, withdrawEnabled: false });
  });

  it("gives each member one address for good and never one address to two members, however many requests arrive at once", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 0, max: 8 }),
        fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 6, maxLength: 6 }),
        fc.integer({ min: 0, max: 0x7fff_ffff }),
        async (memberCount, poolSize, asks, seed) => {
          await sql`delete from deposit_address where network = 'SOL'`.execute(store.db);
          await sql`delete from deposit_address_pool`.execute(store.db);
          const addresses = keyPairs(poolSize);
          if (poolSize > 0) await imported(addresses);
          const members = await newMembers(memberCount);
          // Every member asks 1 to 4 times, all requests at once in a random order.
          const shuffled = shuffle(
            members.flatMap((id, i) => Array.from({ length: asks[i]! }, () => id)),
            seed,
          );
          const answers = await Promise.allSettled(shuffled.map((id) => wallet.depositAddress(id, "SOL", "SOL", Date.now())));

          const byMember = new Map<string, Set<string>>();
          answers.forEach((answer, i) => {
            const got = byMember.get(shuffled[i]!) ?? new Set<string>();
            byMember.set(shuffled[i]!, got);
            if (answer.status === "fulfilled") got.add(answer.value.address);
            else {
              // The only refusal is the empty pool's (never a 5xx-kind error).
              expect(answer.reason).toBeInstanceOf(Refusal);
              expect((answer.reason as Refusal).reason).toBe("DEPOSIT_ADDRESS_POOL_EMPTY");
              got.add("refused");
            }
          });
          // A member's requests agree: one address, or (the pool ran out first) refused every time.
          for (const got of byMember.values()) expect(got.size).toBe(1);
          const given = [...byMember.values()].map((s) => [...s][0]!).filter((a) => a !== "refused");
          expect(given).toHaveLength(Math.min(poolSize, memberCount));
          expect(new Set(given).size).toBe(given.length);
          for (const address of given) expect(addresses).toContain(address);

          // The tables say the same: one pool row and one deposit_address row per member that has one, the same member on both.
          const rows = await store.db
            .selectFrom("deposit_address_pool as p")
            .innerJoin("deposit_address as d", (j) => j.onRef("d.network", "=", "p.network").onRef("d.address", "=", "p.address"))
            .select(["p.member_id as pooledTo", "d.member_id as heldBy", "d.address"])
            .where("p.network", "=", "SOL")
            .execute();
          expect(rows).toHaveLength(given.length);
          for (const row of rows) expect(String(row.pooledTo)).toBe(String(row.heldBy));
          expect(await solLevel()).toMatchObject({ free: poolSize - given.length, assigned: given.length });
          // For good: asked again, later, each member gets the same answer.
          for (const [id, got] of byMember) {
            const again = await wallet.depositAddress(id, "SOL", "SOL", Date.now()).catch(() => ({ address: "refused" }));
            expect(again.address).toBe([...got][0]);
          }
        },
      ),
      { numRuns: kind === "postgres" ? 25 : 12 },
    );
  });

  it("refuses a member when the pool is empty: in their language, a 400 with its reason, nothing given out, and logged", async () => {
    const { token } = await registerAndLogIn(app, `pool-empty-${kind}@example.com`, "device-pool-empty");
    const ask = (lang: string) =>
      client.call(endpoints.getDepositAddressWithNotEncrypt, { params: { coin: "SOL" }, query: { network: "SOL" } }, { token, lang });
    const german = await ask("de");
    expect(german).toMatchObject({ status: 400, success: false, reason: "DEPOSIT_ADDRESS_POOL_EMPTY" });
    expect(german.msg).toBe("Für SOL über das Netzwerk SOL ist gerade keine Einzahlungsadresse verfügbar. Bitte versuchen Sie es später erneut.");
    expect((await ask("en")).msg).toBe("No deposit address for SOL on the SOL network is available right now. Please try again later.");
    expect(await store.db.selectFrom("deposit_address").select("address").where("network", "=", "SOL").execute()).toEqual([]);
    expect(warnings.filter((w) => w.includes("SOL deposit-address pool is empty"))).toHaveLength(2);

    // Custody hands over addresses: the member gets the first, and keeps it.
    const [first, second] = keyPairs(2);
    await imported([first!, second!]);
    const answer = await ask("en");
    expect(answer.data).toEqual({ coin: "SOL", network: "SOL", address: first, tag: null, confirmations: 32, minDeposit: "0.01" });
    expect((await ask("en")).data!.address).toBe(first);
    // Below the low mark (3): logged, now and then rather than at every request.
    expect(warnings.filter((w) => w.includes("SOL deposit-address pool is low: 1 free"))).toHaveLength(1);
  });

  it("imports custody's file all or nothing: every line checked, the bad ones named by their line; again, it adds nothing", async () => {
    const good = keyPairs(4);
    const before = await auditRows();
    const bad = await importText(
      [
        "# custody batch 1",
        good[0],
        "11111111111111111111111111111111", // the system program: no one holds its key
        good[1],
        "TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL",
        "",
        good[2]!.slice(0, -1) + "0",
      ].join("\n"),
    );
    expect(bad).toMatchObject({ status: 400, reason: "ADDRESS_INVALID" });
    expect(bad.msg).toContain("3 of 5 addresses cannot be SOL deposit addresses; nothing was imported");
    expect(bad.msg).toContain("line 3: 11111111111111111111111111111111: not a key pair's public key");
    expect(bad.msg).toContain("line 5: TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL: not a Solana address");
    expect(bad.msg).toContain("line 7: ");
    expect(bad.msg).not.toContain("line 2:");
    expect(await solLevel()).toMatchObject({ free: 0, assigned: 0 });

    // A part of a longer file is numbered from its first line.
    expect((await importText(`${good[0]}\nnope`, 5001)).msg).toContain("line 5002: nope");

    expect(await imported(["# batch 1", ...good.slice(0, 3), good[0]!])).toMatchObject({
      network: "SOL",
      added: 3,
      skipped: 1,
      level: { network: "SOL", free: 3, assigned: 0, lowWater: 3, low: false },
    });
    expect(await imported(good.slice(0, 3))).toMatchObject({ added: 0, skipped: 3, level: { free: 3 } });

    // An address given out already is skipped, also after it is no longer in the pool's free part.
    const [member] = await newMembers(1);
    const given = (await wallet.depositAddress(member!, "SOL", "SOL", Date.now())).address;
    expect(given).toBe(good[0]);
    expect(await imported([given, good[3]!])).toMatchObject({ added: 1, skipped: 1, level: { free: 3, assigned: 1 } });
    // One audit row per import that changed the pool or could have; none for a refused one.
    expect((await auditRows()) - before).toBe(3);

    expect(await client.data(endpoints.adminAddressPoolLevel, { query: {} }, admin)).toEqual([
      { network: "SOL", free: 3, assigned: 1, lowWater: 3, low: false },
    ]);
    expect(await client.data(endpoints.adminAddressPoolLevel, { query: { network: "BTC" } }, admin)).toEqual([]);
  });

  it("refuses an import to a network without a pool, an empty file, and a caller without the admin token", async () => {
    const [address] = keyPairs(1);
    for (const network of ["BTC", "ERC20", "NOPE"]) {
      const answer = await client.call(endpoints.adminAddressPoolImport, { body: { network, text: address! } }, admin);
      expect(answer, network).toMatchObject({ status: 400, reason: "DEPOSIT_NETWORK_UNKNOWN" });
      expect(answer.msg).toContain("pooled networks: SOL");
    }
    expect(await importText("# nothing yet\n\n")).toMatchObject({ status: 400, reason: "VALIDATION" });
    expect((await client.call(endpoints.adminAddressPoolImport, { body: { network: "SOL", text: address! } }, { admin: "x".repeat(32) })).status).toBe(403);
    expect((await client.call(endpoints.adminAddressPoolLevel, { query: {} }, {})).status).toBe(403);
    expect(await solLevel()).toMatchObject({ free: 0 });
  });

  it("gives out the simulated custody's addresses only while that custody is in-process, and tops up to the target below the low mark", async () => {
    const logged: string[] = [];
    const log = { warn: (_obj: object, message: string) => logged.push(message) };
    const simulated = new AddressPool(store.db, { custody: simulatedCustody, lowWater: 5, target: 12, log });
    expect(await simulated.upkeep(Date.now())).toEqual([{ network: "SOL", free: 12, assigned: 0, lowWater: 5, low: false }]);
    expect(await simulated.topUp(Date.now())).toBe(0); // not below the low mark: nothing added
    const rows = await store.db.selectFrom("deposit_address_pool").select(["address", "source"]).execute();
    expect(rows).toHaveLength(12);
    for (const row of rows) {
      expect(row.source).toBe("adapter");
      expect(poolAddressProblem("solana", row.address)).toBeNull();
    }

    // Real nodes (no in-process custody): a simulated key pair's address is never given out.
    expect(await solLevel()).toMatchObject({ free: 0, low: true });
    const [someone] = await newMembers(1);
    await expect(wallet.depositAddress(someone!, "SOL", "SOL", Date.now())).rejects.toThrow("wallet.address_pool_empty");
    expect((await pool.upkeep(Date.now()))[0]).toMatchObject({ free: 0, low: true });
    expect(
      warnings.some((w) => w.includes("SOL deposit-address pool is low: 0 free (low mark 3); import more: npm run admin -- address-pool import SOL <file>")),
    ).toBe(true);

    // With it: members take them; below the low mark it is logged and refilled to the target.
    const simulatedWallet = new WalletService(store.db, undefined, simulated);
    for (const id of await newMembers(8)) await simulatedWallet.depositAddress(id, "SOL", "SOL", Date.now());
    expect(logged.filter((m) => m.includes("pool is low"))).toHaveLength(1);
    await simulated.topUp(Date.now());
    expect((await simulated.level("SOL"))[0]).toMatchObject({ free: 12, assigned: 8, low: false });
  });
});

/** A seeded Fisher–Yates shuffle (mulberry32): fast-check's seed decides the order of the requests. */
function shuffle<T>(items: T[], seed: number): T[] {
  let state = seed >>> 0;
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
