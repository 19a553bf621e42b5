import type { Kysely } from "kysely";
import { fromMinor } from "../../protocol/money";
import type { Command } from "../core/exchange/commands";
import { eventsOf, membersTouched } from "../core/exchange/events";
import type { ExchangeCore } from "../core/exchange/exchange-core";
import { allot, byId, type Subscription } from "../core/earn/subscriptions";
import { accountOf } from "../core/ledger/ledger";
import type { Accepted, Product, ProjectionContext } from "../journal/product";
import { minorOf } from "../store/bulk-restore";
import type { Database } from "../store/schema";
import { configureSubscriptions, projectRows } from "./sub-config";
import { SUB_ROWS } from "./sub-rows";

/** The commands of new-coin and ETF subscriptions (decision 053). */
export const SUBSCRIPTION_COMMANDS = [
  "subscription.subscribe",
  "subscription.tick",
  "subscription.return_apply",
  "subscription.return_pay",
  "subscription.project",
] as const;

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Subscriptions as a product of the durable layer (decisions 017 and 053): each command's rows
 * (projects as they stand, new subscriptions, each settlement and status change, return
 * applications) and the restore of their part of the core from those tables when a start has no
 * usable snapshot: projects with what was asked and whether allotted, the subscriptions whose money
 * is still on their accounts, pending applications, and, for a project allotted but not wholly
 * settled, each waiting subscription's lots recomputed by the same allotment over all of the
 * project's subscriptions.
 */
export const subscriptionProduct: Product = {
  name: "subscriptions",
  commands: SUBSCRIPTION_COMMANDS,

  project(_command: Command, outcome: Accepted, ctx: ProjectionContext): void {
    const { core, stamp } = ctx;
    const subs = core.subscriptions;
    const rows = ctx.batch.rows(SUB_ROWS);
    for (const member of membersTouched(outcome.events, (id) => accountOf(id).owner)) ctx.touched(member);
    ctx.transfers(eventsOf(outcome.events, "transfer"));
    const projects = new Set<string>();
    const coin = (asset: string, v: bigint) => fromMinor(v, core.scaleOf(asset));
    for (const e of outcome.events) {
      switch (e.type) {
        case "subscription.project":
        case "subscription.allotted":
          projects.add(e.projectId);
          break;
        case "subscription.subscribed": {
          projects.add(e.projectId);
          const p = subs.projects.get(e.projectId)!;
          const s = subs.subscription(e.subscriptionId)!;
          rows.subscription({
            id: s.id,
            member_id: s.owner,
            project_id: p.id,
            type: p.type,
            asset: p.asset,
            quote_asset: p.quoteAsset,
            price: coin(p.quoteAsset, p.price),
            quantity: coin(p.asset, s.quantity),
            paid: coin(p.quoteAsset, s.paid),
            status: "held",
            application_id: null,
            created_at: iso(s.createdAt),
            updated_at: stamp,
          });
          break;
        }
        case "subscription.settled": {
          const p = subs.projects.get(e.projectId)!;
          rows.change({
            id: e.subscriptionId,
            status: e.status,
            won_quantity: coin(p.asset, e.wonQuantity),
            won_amount: coin(p.quoteAsset, e.wonAmount),
            refund: coin(p.quoteAsset, e.refund),
            updated_at: stamp,
          });
          break;
        }
        case "subscription.return_applied":
          for (const id of e.subscriptionIds) rows.change({ id, status: "returning", application_id: e.applicationId, updated_at: stamp });
          rows.application({
            id: e.applicationId,
            member_id: e.memberId,
            subscriptions: e.subscriptionIds.length,
            status: "pending",
            // The core's time of the application (a restore from the tables reads it back).
            created_at: iso(subs.application(e.applicationId)!.createdAt),
            paid_at: null,
          });
          break;
        case "subscription.returned":
          for (const id of e.subscriptionIds) rows.change({ id, status: "returned", updated_at: stamp });
          rows.applicationPaid(e.applicationId, stamp);
          break;
      }
    }
    for (const id of projects) {
      const p = subs.projects.get(id)!;
      rows.project({
        id: p.id,
        type: p.type,
        asset: p.asset,
        quote_asset: p.quoteAsset,
        price: coin(p.quoteAsset, p.price),
        lot: coin(p.asset, p.lot),
        supply: coin(p.asset, p.supply),
        min_per_member: coin(p.asset, p.minPerMember),
        max_per_member: coin(p.asset, p.maxPerMember),
        start_at: iso(p.startAt),
        end_at: iso(p.endAt),
        return_by_application: p.returnByApplication,
        requested: coin(p.asset, p.requested),
        allotted_at: p.allottedAt === null ? null : iso(p.allottedAt),
      });
    }
  },

  async restoreFromTables(core: ExchangeCore, db: Kysely<Database>): Promise<void> {
    configureSubscriptions(core, await projectRows(db));
    const subs = core.subscriptions;
    const open = await db.selectFrom("subscription").selectAll().where("status", "in", ["held", "allotted", "returning"]).execute();
    const scaleOf = (asset: string) => core.scaleOf(asset);
    const restored: Subscription[] = open.map((r) => ({
      id: r.id,
      owner: r.member_id,
      projectId: r.project_id,
      quantity: minorOf(String(r.quantity), scaleOf(r.asset)),
      paid: minorOf(String(r.paid), scaleOf(r.quote_asset)),
      createdAt: new Date(r.created_at).getTime(),
      status: r.status as Subscription["status"],
      wonQuantity: minorOf(String(r.won_quantity), scaleOf(r.asset)),
      wonAmount: minorOf(String(r.won_amount), scaleOf(r.quote_asset)),
      refund: minorOf(String(r.refund), scaleOf(r.quote_asset)),
      applicationId: r.application_id,
    }));
    for (const s of restored) subs.restoreSubscription(s);
    const byApplication = new Map<string, { owner: string; ids: string[]; createdAt: number }>();
    const pending = await db.selectFrom("return_application").selectAll().where("status", "=", "pending").execute();
    for (const a of pending) byApplication.set(a.id, { owner: a.member_id, ids: [], createdAt: new Date(a.created_at).getTime() });
    for (const s of restored.filter((x) => x.status === "returning").sort(byId)) byApplication.get(s.applicationId!)?.ids.push(s.id);
    for (const [id, a] of byApplication) subs.restoreApplication({ id, owner: a.owner, createdAt: a.createdAt, subscriptionIds: a.ids });
    // A project allotted but not wholly settled: its waiting subscriptions' lots, by the same allotment over all of its subscriptions.
    const unsettled = new Set(restored.filter((s) => s.status === "held" && subs.projects.get(s.projectId)?.allottedAt != null).map((s) => s.projectId));
    for (const projectId of unsettled) {
      const p = subs.projects.get(projectId)!;
      const all = await db.selectFrom("subscription").select(["id", "quantity", "created_at"]).where("project_id", "=", projectId).execute();
      const asks = all
        .map((r) => ({ id: r.id, createdAt: new Date(r.created_at).getTime(), lots: minorOf(String(r.quantity), scaleOf(p.asset)) / p.lot }))
        .sort(byId);
      allot(asks, p.supply / p.lot).forEach((lots, i) => subs.restoreWon(asks[i]!.id, lots));
    }
    subs.resumeSettling();
  },

  async openConfiguredSince(core: ExchangeCore, db: Kysely<Database>): Promise<boolean> {
    return configureSubscriptions(core, await projectRows(db));
  },
};
