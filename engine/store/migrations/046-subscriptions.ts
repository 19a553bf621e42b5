import { sql, type Kysely } from "kysely";

/**
 * New-coin and ETF subscriptions (issue 32, decision 053). Reference data: the two coins the demo
 * projects issue, NXA (a new coin) and TOP5 (an index ETF); a project issues a coin that is listed.
 * Configuration and its state: `sub_project`, a project's coin, price, lots, supply, per-member
 * bounds and window, what its subscriptions asked (`requested`) and when it was allotted. State:
 * `subscription`, every subscription with what it asked, paid, won and returns, and its status
 * (the table of decision 053), kept once settled as the member's records. `return_application`: a
 * member's application for the returns kept for them, pending until an operator pays it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    insert into asset (code, scale, name) values ('NXA', 8, 'Nexa'), ('TOP5', 8, 'Top 5 Index ETF')
      on conflict (code) do nothing;
    create table sub_project (
      id varchar(40) primary key,
      type smallint not null check (type in (1, 2)),
      asset varchar(20) not null,
      quote_asset varchar(20) not null,
      price numeric(38, 18) not null check (price > 0),
      lot numeric(38, 18) not null check (lot > 0),
      supply numeric(38, 18) not null check (supply > 0),
      min_per_member numeric(38, 18) not null check (min_per_member > 0),
      max_per_member numeric(38, 18) not null,
      start_at timestamptz not null,
      end_at timestamptz not null,
      return_by_application boolean not null default false,
      requested numeric(38, 18) not null default 0,
      allotted_at timestamptz,
      sort int not null default 0,
      check (end_at > start_at and max_per_member >= min_per_member)
    );
    create table subscription (
      id varchar(64) primary key,
      member_id varchar(40) not null,
      project_id varchar(40) not null,
      type smallint not null,
      asset varchar(20) not null,
      quote_asset varchar(20) not null,
      price numeric(38, 18) not null,
      quantity numeric(38, 18) not null,
      paid numeric(38, 18) not null,
      won_quantity numeric(38, 18) not null default 0,
      won_amount numeric(38, 18) not null default 0,
      refund numeric(38, 18) not null default 0,
      status varchar(16) not null check (status in ('held', 'won', 'allotted', 'returning', 'returned', 'already_returned')),
      application_id varchar(64),
      created_at timestamptz not null,
      updated_at timestamptz not null
    );
    create index subscription_member on subscription (member_id, type, created_at desc);
    create index subscription_project on subscription (project_id);
    create index subscription_open on subscription (status) where status in ('held', 'allotted', 'returning');
    create table return_application (
      id varchar(64) primary key,
      member_id varchar(40) not null,
      subscriptions int not null,
      status varchar(8) not null check (status in ('pending', 'paid')),
      created_at timestamptz not null,
      paid_at timestamptz
    );
    create index return_application_member on return_application (member_id, created_at desc);
    create index return_application_pending on return_application (created_at) where status = 'pending';
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table return_application, subscription, sub_project; delete from asset where code in ('NXA', 'TOP5')`.execute(db);
}
