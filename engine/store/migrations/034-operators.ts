import { sql, type Kysely } from "kysely";

/**
 * Operators (issue 29, decision 043): their accounts, their sessions (tokens stored as digests),
 * and the append-only audit log of everything they change. The log refuses UPDATE, DELETE and
 * TRUNCATE at the database itself, so no code path, console page or CLI command can rewrite it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table operator (
      id bigserial primary key,
      email text not null unique,
      name text not null,
      role text not null check (role in ('admin', 'support', 'compliance', 'finance', 'markets', 'arbiter')),
      password_hash text not null,
      totp_secret text,
      disabled_at timestamptz,
      created_at timestamptz not null,
      last_login_at timestamptz
    );
    create table operator_session (
      id bigserial primary key,
      operator_id bigint not null references operator (id),
      token_hash char(64) not null unique,
      created_at timestamptz not null,
      last_seen_at timestamptz not null,
      expires_at timestamptz not null,
      revoked_at timestamptz,
      ip text not null,
      user_agent text not null
    );
    create index operator_session_operator on operator_session (operator_id);
    create table operator_audit (
      id bigserial primary key,
      at timestamptz not null,
      operator_id bigint references operator (id),
      operator_name text not null,
      role text not null,
      via text not null,
      action text not null,
      target text not null,
      before jsonb,
      after jsonb,
      address text not null
    );
    create index operator_audit_at on operator_audit (at desc, id desc);
    create index operator_audit_operator on operator_audit (operator_id, id desc);
    create index operator_audit_action on operator_audit (action, id desc);
    create function operator_audit_append_only() returns trigger language plpgsql as $$
      begin
        raise exception 'operator_audit is append-only';
      end
    $$;
    create trigger operator_audit_no_update before update or delete on operator_audit
      for each row execute function operator_audit_append_only();
    create trigger operator_audit_no_truncate before truncate on operator_audit
      for each statement execute function operator_audit_append_only()
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop table if exists operator_audit;
    drop function if exists operator_audit_append_only;
    drop table if exists operator_session;
    drop table if exists operator
  `.execute(db);
}
