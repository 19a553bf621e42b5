import type { Command } from "../core/exchange/commands";
import type { ProjectionRows, RowsKind } from "../journal/command-batch";
import type { Accepted, Product, ProjectionContext } from "../journal/product";
import { json } from "../journal/sql-script";
import { ANTI_CODE_SLOT, walletMailTexts } from "./wallet-mail-texts";
import { noticeKey, WALLET_NOTICE_COMMANDS, walletNotices } from "./wallet-notices";

/** One mail to write: its key, its member, when, and its text in every language. */
export interface MailRow {
  key: string;
  member: string;
  at: string;
  texts: ReturnType<typeof walletMailTexts>;
}

/** Member ids are bigints; anything else (a test's or a bench's own names) has no member row to mail. */
export const MEMBER_ID = /^[1-9]\d{0,17}$/;

/**
 * A batch's wallet mails, as one statement: each row becomes an outbox e-mail to its member's
 * address, in the member's language (`member.lang`, else English), with their anti-phishing line
 * first when they set a code. A member without an e-mail address (phone only) gets none.
 * `on conflict (dedupe_key) do nothing`: a key written before (a rebuild of the projection)
 * writes nothing again.
 */
class WalletMailRows implements ProjectionRows {
  private readonly rows: MailRow[] = [];

  add(row: MailRow): void {
    this.rows.push(row);
  }

  absorb(later: WalletMailRows): void {
    this.rows.push(...later.rows);
  }

  statements(): string[] {
    if (!this.rows.length) return [];
    return [
      `insert into outbox_message (channel, destination, subject, body, created_at, dedupe_key)
      select 'email', m.email, t.subject,
        case when coalesce(m.anti_code, '') = '' then t.body else replace(t."antiLine", '${ANTI_CODE_SLOT}', m.anti_code) || chr(10) || t.body end,
        n.at, n.key
      from json_to_recordset(${json(this.rows)}) as n(key text, member bigint, at timestamptz, texts json)
      join member m on m.id = n.member
      cross join lateral json_to_record(coalesce(n.texts -> m.lang, n.texts -> 'en')) as t(subject text, body text, "antiLine" text)
      where m.email is not null
      on conflict (dedupe_key) do nothing`,
    ];
  }
}

/** After every area's rows (the mail reads none of them, and none reads it); the risk mails (notices/risk-mails.ts) write theirs here too. */
export const WALLET_MAIL_ROWS: RowsKind<WalletMailRows> = { name: "wallet mails", order: 200, create: () => new WalletMailRows() };

/**
 * The wallet's e-mails (issue 12, docs/decisions/030-wallet-emails.md): a deposit credited and
 * each step of a withdrawal mail the member through the outbox. It owns no command; it follows
 * the deposit and withdrawal commands and writes its outbox rows in the projection, in the same
 * transaction as the rest of the command's rows and the projection's cursor, so each is written
 * once per command: a replay of the journal after a restart writes only what the tables did not
 * yet include, and a rebuild that writes a command again meets its `dedupe_key`.
 */
export const walletMailProduct: Product = {
  name: "wallet mails",
  commands: [],
  follows: WALLET_NOTICE_COMMANDS,

  project(): void {},

  follow(command: Command, outcome: Accepted, ctx: ProjectionContext): void {
    const notices = walletNotices(command, outcome.events, (asset) => ctx.core.scaleOf(asset));
    for (const { memberId, notice } of notices) {
      if (!MEMBER_ID.test(memberId)) continue;
      ctx.batch.rows(WALLET_MAIL_ROWS).add({ key: noticeKey(notice), member: memberId, at: ctx.stamp, texts: walletMailTexts(notice) });
    }
  },

  async restoreFromTables(): Promise<void> {},
};
