import type { Kysely } from "kysely";
import type { ProjectView, ReturnApplyView, SubscriptionStatusView, SubscriptionView } from "../../protocol/endpoints/subscription";
import { addDecimals } from "../../protocol/decimal";
import { fromMinor } from "../../protocol/money";
import type { SubscriptionProject } from "../core/earn/subscriptions";
import type { ExchangeCore } from "../core/exchange/exchange-core";
import { trimDecimal } from "../contracts/contract-config";
import type { Database } from "../store/schema";
import { pageOf, type Page, type Paging } from "../store/paging";

const iso = (ms: number) => new Date(ms).toISOString();

/** Where a project stands at `at`: its window not yet open, open, closed and waiting for its allotment, allotted. */
export function phaseOf(p: SubscriptionProject, at: number): ProjectView["phase"] {
  if (p.allottedAt !== null) return "allotted";
  if (at < p.startAt) return "upcoming";
  return at < p.endAt ? "open" : "closed";
}

/** A project as members see it (`names`: the coins' names). */
export function projectView(core: ExchangeCore, p: SubscriptionProject, names: ReadonlyMap<string, string>, at: number): ProjectView {
  const coin = (v: bigint) => fromMinor(v, core.scaleOf(p.asset), { trim: true });
  return {
    projectId: p.id,
    type: p.type,
    coin: p.asset,
    coinName: names.get(p.asset) ?? p.asset,
    payCoin: p.quoteAsset,
    price: fromMinor(p.price, core.scaleOf(p.quoteAsset), { trim: true }),
    lot: coin(p.lot),
    supply: coin(p.supply),
    requested: coin(p.requested),
    minPerMember: coin(p.minPerMember),
    maxPerMember: coin(p.maxPerMember),
    startAt: iso(p.startAt),
    endAt: iso(p.endAt),
    allottedAt: p.allottedAt === null ? null : iso(p.allottedAt),
    phase: phaseOf(p, at),
    returnByApplication: p.returnByApplication,
  };
}

type Amounts = Array<{ coin: string; amount: string; subscriptions: number }>;

/**
 * A member's purchase records and return application from the tables (decision 053), each read
 * once the member's latest command is projected. A held subscription reads as *in purchase*
 * during its window and *purchase completed* after it, until its settlement.
 */
export class SubscriptionReads {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly projected: (memberId: string) => Promise<unknown>,
    private readonly now: () => number,
  ) {}

  /** One of the member's purchase records, or null. */
  async record(memberId: string, subscriptionId: string): Promise<SubscriptionView | null> {
    await this.projected(memberId);
    const row = await this.db.selectFrom("subscription").select("type").where("member_id", "=", memberId).where("id", "=", subscriptionId).executeTakeFirst();
    if (!row) return null;
    const page = await this.records(memberId, row.type === 2 ? 2 : 1, { subscriptionId }, { pageNo: 1, pageSize: 1 });
    return page.records[0] ?? null;
  }

  async records(
    memberId: string,
    type: 1 | 2,
    filter: { status?: SubscriptionStatusView; projectId?: string; subscriptionId?: string },
    paging: Paging,
  ): Promise<Page<SubscriptionView>> {
    await this.projected(memberId);
    const now = new Date(this.now());
    const query = this.db
      .selectFrom("subscription as s")
      .innerJoin("sub_project as p", "p.id", "s.project_id")
      .innerJoin("asset as a", "a.code", "s.asset")
      .where("s.member_id", "=", memberId)
      .where("s.type", "=", type)
      .$if(filter.projectId !== undefined, (q) => q.where("s.project_id", "=", filter.projectId!))
      .$if(filter.subscriptionId !== undefined, (q) => q.where("s.id", "=", filter.subscriptionId!))
      .$if(filter.status === "subscribing", (q) => q.where("s.status", "=", "held").where("p.end_at", ">", now))
      .$if(filter.status === "closed", (q) => q.where("s.status", "=", "held").where("p.end_at", "<=", now))
      .$if(filter.status !== undefined && filter.status !== "subscribing" && filter.status !== "closed", (q) =>
        q.where("s.status", "=", filter.status as Exclude<SubscriptionStatusView, "subscribing" | "closed">),
      );
    const [rows, count] = await Promise.all([
      query
        .select([
          "s.id",
          "s.project_id",
          "s.type",
          "s.asset",
          "a.name as coin_name",
          "s.quote_asset",
          "p.supply",
          "s.price",
          "p.start_at",
          "p.end_at",
          "s.quantity",
          "s.paid",
          "s.won_quantity",
          "s.won_amount",
          "s.refund",
          "s.status",
          "s.created_at",
        ])
        .orderBy("s.created_at", "desc")
        .orderBy("s.id", "desc")
        .limit(paging.pageSize)
        .offset((paging.pageNo - 1) * paging.pageSize)
        .execute(),
      query.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow(),
    ]);
    const at = this.now();
    return pageOf(
      rows.map((r) => ({
        subscriptionId: r.id,
        projectId: r.project_id,
        type: r.type === 2 ? 2 : 1,
        coin: r.asset,
        coinName: r.coin_name,
        payCoin: r.quote_asset,
        supply: trimDecimal(String(r.supply)),
        price: trimDecimal(String(r.price)),
        startAt: new Date(r.start_at).toISOString(),
        endAt: new Date(r.end_at).toISOString(),
        quantity: trimDecimal(String(r.quantity)),
        paid: trimDecimal(String(r.paid)),
        wonQuantity: trimDecimal(String(r.won_quantity)),
        wonAmount: trimDecimal(String(r.won_amount)),
        refund: trimDecimal(String(r.refund)),
        status: r.status === "held" ? (new Date(r.end_at).getTime() > at ? "subscribing" : "closed") : r.status,
        createdAt: new Date(r.created_at).toISOString(),
      })),
      Number(count.n),
      paging,
    );
  }

  /** How many subscriptions each project has had (the console's figure). */
  async subscriptionCounts(): Promise<Map<string, number>> {
    const counts = await this.db
      .selectFrom("subscription")
      .select(["project_id", (eb) => eb.fn.countAll<string>().as("n")])
      .groupBy("project_id")
      .execute();
    return new Map(counts.map((c) => [c.project_id, Number(c.n)]));
  }

  /** Members' public UIDs by their ids (what operators see). */
  async uidsOf(memberIds: readonly string[]): Promise<Map<string, string>> {
    if (memberIds.length === 0) return new Map();
    const rows = await this.db.selectFrom("member").select(["id", "uid"]).where("id", "in", memberIds).execute();
    return new Map(rows.map((r) => [String(r.id), r.uid]));
  }

  /**
   * The member's return application (spec §3 Repay status): 0 while an application waits, else 2
   * ("not yet") while something is returnable, else 1 once a return has been paid, else 2.
   */
  async returnStatus(memberId: string): Promise<ReturnApplyView> {
    await this.projected(memberId);
    const rows = await this.db
      .selectFrom("subscription")
      .select(["quote_asset", "status", "application_id", (eb) => eb.fn.sum<string>("refund").as("amount"), (eb) => eb.fn.countAll<string>().as("n")])
      .where("member_id", "=", memberId)
      .where("status", "in", ["allotted", "returning", "returned"])
      .groupBy(["quote_asset", "status", "application_id"])
      .execute();
    const sum = (status: string): Amounts => {
      const by = new Map<string, { amount: string; subscriptions: number }>();
      for (const r of rows.filter((x) => x.status === status)) {
        const c = by.get(r.quote_asset) ?? { amount: "0", subscriptions: 0 };
        by.set(r.quote_asset, { amount: addDecimals(c.amount, trimDecimal(String(r.amount))), subscriptions: c.subscriptions + Number(r.n) });
      }
      return [...by].map(([coin, c]) => ({ coin, ...c }));
    };
    const returnable = sum("allotted");
    const returning = sum("returning");
    const applicationId = rows.find((r) => r.status === "returning")?.application_id ?? null;
    const status = returning.length > 0 ? 0 : returnable.length === 0 && rows.some((r) => r.status === "returned") ? 1 : 2;
    return { status, returnable, returning, applicationId };
  }
}

/** The coins' names (the spec's "currency name"), read from `asset` and kept a minute. */
export function coinNames(db: Kysely<Database>): () => Promise<ReadonlyMap<string, string>> {
  let kept: { at: number; names: Promise<ReadonlyMap<string, string>> } | null = null;
  return () => {
    const at = Date.now();
    if (!kept || at - kept.at > 60_000) {
      const names = db
        .selectFrom("asset")
        .select(["code", "name"])
        .execute()
        .then((rows) => new Map(rows.map((r) => [r.code, r.name])) as ReadonlyMap<string, string>);
      kept = { at, names };
      names.catch(() => (kept = null));
    }
    return kept.names;
  };
}
