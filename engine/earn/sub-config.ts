import type { Kysely, Selectable } from "kysely";
import type { ExchangeCore } from "../core/exchange/exchange-core";
import type { SubscriptionProject } from "../core/earn/subscriptions";
import { minorOf } from "../store/bulk-restore";
import type { Database, SubProjectTable } from "../store/schema";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * The projects of a fresh install (issue 32, decision 053), their windows from the moment of the
 * install: a new coin (NXA) and an ETF (TOP5) open for three days, a short NXA round that closes
 * twenty minutes after the install (so a newcomer sees an allotment, with the simulated
 * subscribers oversubscribing it), and a next NXA round opening in two days (its countdown).
 * `returnByApplication` follows the deployment variant (decision 005): where the return button is
 * shown, what a subscription paid beyond what it won waits for the member's application.
 */
export function seededProjects(now: number, returnByApplication: boolean): Array<Omit<Selectable<SubProjectTable>, "requested">> {
  const at = (ms: number) => new Date(ms);
  const base = { quote_asset: "USDT", return_by_application: returnByApplication, allotted_at: null };
  return [
    {
      ...base,
      id: "NXA-R1",
      type: 1,
      asset: "NXA",
      price: "0.05",
      lot: "10",
      supply: "200000",
      min_per_member: "100",
      max_per_member: "50000",
      start_at: at(now - HOUR),
      end_at: at(now + 20 * 60_000),
      sort: 1,
    },
    {
      ...base,
      id: "NXA-R2",
      type: 1,
      asset: "NXA",
      price: "0.06",
      lot: "10",
      supply: "5000000",
      min_per_member: "100",
      max_per_member: "200000",
      start_at: at(now - HOUR),
      end_at: at(now + 3 * DAY),
      sort: 2,
    },
    {
      ...base,
      id: "NXA-R3",
      type: 1,
      asset: "NXA",
      price: "0.08",
      lot: "10",
      supply: "5000000",
      min_per_member: "100",
      max_per_member: "200000",
      start_at: at(now + 2 * DAY),
      end_at: at(now + 5 * DAY),
      sort: 3,
    },
    {
      ...base,
      id: "TOP5-R1",
      type: 2,
      asset: "TOP5",
      price: "10",
      lot: "0.1",
      supply: "100000",
      min_per_member: "1",
      max_per_member: "5000",
      start_at: at(now - HOUR),
      end_at: at(now + 3 * DAY),
      sort: 4,
    },
  ];
}

/** Seeds the demo projects while the table is empty. */
export async function seedSubscriptions(db: Kysely<Database>, now: number, returnByApplication: boolean): Promise<void> {
  if (!(await db.selectFrom("sub_project").select("id").limit(1).executeTakeFirst()))
    await db.insertInto("sub_project").values(seededProjects(now, returnByApplication)).execute();
}

export async function projectRows(db: Kysely<Database>): Promise<Array<Selectable<SubProjectTable>>> {
  return db.selectFrom("sub_project").selectAll().orderBy("sort").orderBy("id").execute();
}

/** A project row as the core holds it (the price in the paying coin's units, quantities in the coin's). */
export function projectOfRow(row: Selectable<SubProjectTable>, scale: number, quoteScale: number): SubscriptionProject {
  const lot = minorOf(String(row.lot), scale);
  const price = minorOf(String(row.price), quoteScale);
  return {
    id: row.id,
    type: row.type === 2 ? 2 : 1,
    asset: row.asset,
    quoteAsset: row.quote_asset,
    price,
    lot,
    supply: minorOf(String(row.supply), scale),
    minPerMember: minorOf(String(row.min_per_member), scale),
    maxPerMember: minorOf(String(row.max_per_member), scale),
    startAt: new Date(row.start_at).getTime(),
    endAt: new Date(row.end_at).getTime(),
    returnByApplication: row.return_by_application,
    lotPrice: (lot * price) / 10n ** BigInt(scale),
    allottedAt: row.allotted_at === null ? null : new Date(row.allotted_at).getTime(),
    requested: minorOf(String(row.requested), scale),
  };
}

/** Configures the projects the core does not hold yet whose coins it lists. True: some. */
export function configureSubscriptions(core: ExchangeCore, rows: Array<Selectable<SubProjectTable>>): boolean {
  let configured = false;
  for (const row of rows) {
    const scale = core.assetScales.get(row.asset);
    const quoteScale = core.assetScales.get(row.quote_asset);
    if (scale === undefined || quoteScale === undefined || core.subscriptions.projects.has(row.id)) continue;
    core.subscriptions.restoreProject(projectOfRow(row, scale, quoteScale));
    configured = true;
  }
  return configured;
}
