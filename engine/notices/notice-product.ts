import type { Command } from "../core/exchange/commands";
import type { ProjectionRows, RowsKind } from "../journal/command-batch";
import type { Accepted, Product, ProjectionContext } from "../journal/product";
import { json } from "../journal/sql-script";
import { NOTICE_TYPES } from "../../protocol/endpoints/notices";
import { coreNotices, NOTICE_COMMANDS, type NewNotice } from "./core-notices";
import { NOTICE_RETENTION_DAYS } from "./notice-retention";

/** Member ids are bigints; anything else (a test's or a bench's own names) has no member row to notify. */
const MEMBER_ID = /^[1-9]\d{0,17}$/;

interface NoticeRow {
  member: string;
  type: string;
  service: string;
  code: string | null;
  params: Record<string, string>;
  at: string;
  key: string;
}

/**
 * A batch's notifications, as one statement, their ids in command order (`order by n.i`: a join
 * may give its rows in another; a member's list is newest id first). `join member`: a member
 * deleted since (or a name a test made up) gets none. `on conflict (dedupe_key) do nothing`: a key written before (a rebuild
 * of the projection) writes nothing again. Older than the retention: not written (the pruning
 * would delete it at once, and a rebuild must not bring back what was pruned).
 */
class NoticeRows implements ProjectionRows {
  private readonly rows: NoticeRow[] = [];

  add(row: NoticeRow): void {
    this.rows.push(row);
  }

  absorb(later: NoticeRows): void {
    for (const row of later.rows) this.rows.push(row);
  }

  statements(): string[] {
    if (!this.rows.length) return [];
    return [
      `insert into member_notice (member_id, type, service_type, order_code, params, created_at, dedupe_key)
      select n.member, n.type, n.service, n.code, coalesce(n.params, '{}'::jsonb), n.at, n.key
      from rows from (json_to_recordset(${json(this.rows)}) as (member bigint, type text, service text, code text, params jsonb, at timestamptz, key text))
        with ordinality as n(member, type, service, code, params, at, key, i)
      join member m on m.id = n.member
      where n.at > now() - interval '${NOTICE_RETENTION_DAYS} days'
      order by n.i
      on conflict (dedupe_key) do nothing`,
    ];
  }
}

/** After every area's rows (it reads none of them, and none reads it). */
const NOTICE_ROWS: RowsKind<NoticeRows> = { name: "member notices", order: 210, create: () => new NoticeRows() };

/**
 * Members' notifications of the core's events (issue 14, docs/decisions/031-notifications.md): a
 * product that owns no command and follows the spot, deposit and withdrawal commands, writing its
 * rows in the projection, in the same transaction as the command's other rows and the projection's
 * cursor: so each is written once per command (a replay after a restart writes only what the
 * tables did not include yet, and a rebuild meets the `dedupe_key`), as the wallet's mails are
 * (decision 030). `quiet`: members told nothing (the simulator's bots, whose orders fill all day
 * and who never log in).
 */
export function noticeProduct(quiet: ReadonlySet<string> = new Set()): Product {
  return {
    name: "member notices",
    commands: [],
    follows: NOTICE_COMMANDS,

    project(): void {},

    follow(command: Command, outcome: Accepted, ctx: ProjectionContext): void {
      const notices = coreNotices(command, outcome.events, {
        asset: (asset) => ctx.core.scaleOf(asset),
        price: (symbol) => ctx.core.markets.get(symbol)?.config.priceScale,
        contractPrice: (symbol) => ctx.core.contracts.get(symbol)?.config.spec.priceScale,
      });
      for (const notice of notices) {
        if (!MEMBER_ID.test(notice.memberId) || quiet.has(notice.memberId)) continue;
        ctx.touched(notice.memberId);
        ctx.batch.rows(NOTICE_ROWS).add(rowOf(notice, ctx.stamp));
      }
    },

    async restoreFromTables(): Promise<void> {},
  };
}

function rowOf(notice: NewNotice, at: string): NoticeRow {
  return {
    member: notice.memberId,
    type: notice.type,
    service: NOTICE_TYPES[notice.type].serviceType,
    code: notice.orderCode,
    params: notice.params,
    at,
    // Every core notice has a key: it names the event, not the command's sequence number.
    key: notice.key!,
  };
}
