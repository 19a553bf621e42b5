import { sql, type Kysely } from "kysely";

/**
 * Staking (issue 32, decision 052). Configuration: `stake_product`, a coin staked flexible or for
 * 7, 30 or 90 days at a yearly rate of at most 18 %, with its cap and per-member bounds, seeded
 * and edited by operators. State: `stake`, every stake with its principal, the rate it was taken
 * at and its interest period (what it is credited follows from these and `stake_state`'s last day
 * credited), kept once ended (`redeemed`, `matured` or `early`) as the member's history; what it
 * paid is in its records. Facts: `stake_record`, every stake, redemption, maturity and early redemption.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table stake_product (
      id varchar(40) primary key,
      asset varchar(20) not null,
      term_days int not null check (term_days in (0, 7, 30, 90)),
      yearly_rate numeric(10, 6) not null check (yearly_rate >= 0 and yearly_rate <= 0.18),
      cap numeric(38, 18) not null,
      min_amount numeric(38, 18) not null check (min_amount > 0),
      max_per_member numeric(38, 18) not null,
      enabled boolean not null default true,
      sort int not null default 0,
      check (max_per_member >= min_amount and cap >= max_per_member)
    );
    create table stake (
      id varchar(64) primary key,
      member_id varchar(40) not null,
      product_id varchar(40) not null,
      asset varchar(20) not null,
      term_days int not null,
      principal numeric(38, 18) not null,
      rate numeric(10, 6) not null,
      period_start timestamptz not null,
      matures_at timestamptz,
      status varchar(12) not null check (status in ('running', 'redeemed', 'matured', 'early')),
      created_at timestamptz not null,
      updated_at timestamptz not null
    );
    create index stake_member on stake (member_id, created_at desc);
    create index stake_running on stake (member_id) where status = 'running';
    create table stake_record (
      id bigserial primary key,
      seq bigint not null,
      stake_id varchar(64) not null,
      member_id varchar(40) not null,
      product_id varchar(40) not null,
      asset varchar(20) not null,
      kind varchar(12) not null check (kind in ('invest', 'redeemed', 'matured', 'early')),
      principal numeric(38, 18) not null,
      interest numeric(38, 18) not null default 0,
      forfeited numeric(38, 18) not null default 0,
      created_at timestamptz not null
    );
    create index stake_record_member on stake_record (member_id, id desc);
    create table stake_state (
      id int primary key check (id = 1),
      credited_through timestamptz not null
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table stake_state, stake_record, stake, stake_product`.execute(db);
}
