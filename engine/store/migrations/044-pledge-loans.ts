import { sql, type Kysely } from "kysely";

/**
 * Crypto loans against collateral (issue 31, decision 051). Configuration: `pledge_product`, a loan
 * coin against a collateral coin for a term (0: flexible), its hourly and overdue rates and its
 * LTVs, seeded and edited by operators. State as the core holds it after each command:
 * `pledge_loan`, every loan with its debt, collateral, next hour charged, due time and warning,
 * kept once closed (`repaid` or `liquidated`) as the member's history. Facts: `pledge_record`,
 * every borrow, repayment (its interest and principal), interest charge, collateral change,
 * liquidation sale and write-off.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table pledge_product (
      id varchar(40) primary key,
      loan_asset varchar(20) not null,
      collateral_asset varchar(20) not null,
      term_days int not null check (term_days in (0, 7, 30, 90, 180)),
      hourly_rate numeric(20, 12) not null check (hourly_rate >= 0 and hourly_rate <= 0.01),
      overdue_rate numeric(20, 12) not null check (overdue_rate >= hourly_rate and overdue_rate <= 0.01),
      initial_ltv numeric(8, 4) not null,
      call_ltv numeric(8, 4) not null,
      liquidation_ltv numeric(8, 4) not null,
      min_amount numeric(38, 18) not null check (min_amount > 0),
      max_amount numeric(38, 18) not null,
      enabled boolean not null default true,
      sort int not null default 0,
      check (0 < initial_ltv and initial_ltv < call_ltv and call_ltv < liquidation_ltv and liquidation_ltv < 1),
      check (max_amount >= min_amount)
    );
    create table pledge_loan (
      id varchar(64) primary key,
      member_id varchar(40) not null,
      product_id varchar(40) not null,
      loan_asset varchar(20) not null,
      collateral_asset varchar(20) not null,
      principal numeric(38, 18) not null,
      interest numeric(38, 18) not null,
      collateral numeric(38, 18) not null,
      next_hour bigint not null,
      due_at timestamptz,
      warned boolean not null default false,
      status varchar(12) not null check (status in ('open', 'repaid', 'liquidated')),
      created_at timestamptz not null,
      updated_at timestamptz not null
    );
    create index pledge_loan_member on pledge_loan (member_id, created_at desc);
    create index pledge_loan_open on pledge_loan (member_id) where status = 'open';
    create table pledge_record (
      id bigserial primary key,
      seq bigint not null,
      loan_id varchar(64) not null,
      member_id varchar(40) not null,
      kind varchar(12) not null check (kind in ('borrow', 'repay', 'interest', 'add', 'remove', 'liquidation', 'writeoff')),
      asset varchar(20) not null,
      amount numeric(38, 18) not null,
      principal numeric(38, 18) not null default 0,
      interest numeric(38, 18) not null default 0,
      created_at timestamptz not null
    );
    create index pledge_record_member on pledge_record (member_id, id desc);
    create index pledge_record_loan on pledge_record (loan_id, id desc);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table pledge_record, pledge_loan, pledge_product`.execute(db);
}
