import type { Kysely } from "kysely";
import { fromMinor } from "../../protocol/money";
import type { Command } from "../core/exchange/commands";
import { eventsOf, membersTouched } from "../core/exchange/events";
import type { ExchangeCore } from "../core/exchange/exchange-core";
import { STAKE_RATE_SCALE } from "../core/earn/staking";
import { accountOf } from "../core/ledger/ledger";
import type { Accepted, Product, ProjectionContext } from "../journal/product";
import { minorOf } from "../store/bulk-restore";
import type { Database } from "../store/schema";
import { configureStaking, stakeProductRows } from "./stake-config";
import { STAKE_ROWS } from "./stake-rows";

/** The commands of staking (decision 052). */
export const STAKE_COMMANDS = ["stake.invest", "stake.redeem", "stake.tick", "stake.product"] as const;

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Staking as a product of the durable layer (decisions 017 and 052): each command's rows (stakes
 * as the core holds them right after it, ended ones with how they ended; the records; products
 * changed; the last day credited), and the restore of staking's part of the core from those tables
 * when a start has no usable snapshot (each stake's credited interest recomputed from its period
 * and the last day credited). Products are read from their table at such a start, and any added
 * while the engine was stopped at a start from a snapshot.
 */
export const stakeProduct: Product = {
  name: "staking",
  commands: STAKE_COMMANDS,

  project(_command: Command, outcome: Accepted, ctx: ProjectionContext): void {
    const { core, stamp, seq } = ctx;
    const events = outcome.events;
    const rows = ctx.batch.rows(STAKE_ROWS);
    for (const member of membersTouched(events, (id) => accountOf(id).owner)) ctx.touched(member);
    ctx.transfers(eventsOf(events, "transfer"));
    const money = (asset: string, v: bigint) => fromMinor(v, core.scaleOf(asset));
    const touched = new Set<string>();
    for (const e of events) {
      switch (e.type) {
        case "stake.invested": {
          touched.add(e.stakeId);
          const asset = core.staking.products.get(e.productId)!.asset;
          rows.record({
            seq: String(seq),
            stake_id: e.stakeId,
            member_id: e.memberId,
            product_id: e.productId,
            asset,
            kind: "invest",
            principal: money(asset, e.amount),
            created_at: stamp,
          });
          break;
        }
        case "stake.paid": {
          touched.add(e.stakeId);
          const asset = core.staking.products.get(e.productId)!.asset;
          rows.record({
            seq: String(seq),
            stake_id: e.stakeId,
            member_id: e.memberId,
            product_id: e.productId,
            asset,
            kind: e.kind,
            principal: money(asset, e.principal),
            interest: money(asset, e.interest),
            forfeited: money(asset, e.forfeited),
            created_at: stamp,
          });
          if (e.closed) rows.end(e.stakeId, e.kind, stamp);
          break;
        }
        case "stake.accrued":
          rows.credited(iso(core.staking.creditedThrough));
          break;
        case "stake.product": {
          const p = core.staking.products.get(e.productId)!;
          rows.product({
            id: p.id,
            asset: p.asset,
            term_days: p.termDays,
            yearly_rate: fromMinor(p.yearlyRate, STAKE_RATE_SCALE),
            cap: money(p.asset, p.cap),
            min_amount: money(p.asset, p.minAmount),
            max_per_member: money(p.asset, p.maxPerMember),
            enabled: p.enabled,
          });
          break;
        }
      }
    }
    for (const id of touched) {
      const stake = core.staking.stake(id);
      if (!stake) continue;
      const p = core.staking.productOf(stake);
      rows.stake({
        id,
        member_id: stake.owner,
        product_id: stake.productId,
        asset: p.asset,
        term_days: p.termDays,
        principal: money(p.asset, stake.principal),
        rate: fromMinor(stake.rate, STAKE_RATE_SCALE),
        period_start: iso(stake.periodStart),
        matures_at: stake.maturesAt === null ? null : iso(stake.maturesAt),
        status: "running",
        created_at: iso(stake.createdAt),
        updated_at: stamp,
      });
    }
  },

  async restoreFromTables(core: ExchangeCore, db: Kysely<Database>): Promise<void> {
    configureStaking(core, await stakeProductRows(db));
    const state = await db.selectFrom("stake_state").select("credited_through").executeTakeFirst();
    core.staking.creditedThrough = state ? new Date(state.credited_through).getTime() : 0;
    const running = await db.selectFrom("stake").selectAll().where("status", "=", "running").execute();
    for (const s of running) {
      core.staking.restoreFromRow({
        id: s.id,
        owner: s.member_id,
        productId: s.product_id,
        principal: minorOf(String(s.principal), core.scaleOf(s.asset)),
        rate: minorOf(String(s.rate), STAKE_RATE_SCALE),
        periodStart: new Date(s.period_start).getTime(),
        createdAt: new Date(s.created_at).getTime(),
        maturesAt: s.matures_at === null ? null : new Date(s.matures_at).getTime(),
      });
    }
  },

  async openConfiguredSince(core: ExchangeCore, db: Kysely<Database>): Promise<boolean> {
    return configureStaking(core, await stakeProductRows(db));
  },
};
