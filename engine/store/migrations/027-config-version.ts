import { sql, type Kysely } from "kysely";

/** The configuration tables (decision 003) and the market listing. Listed here: a shipped migration never changes. */
const CONFIG_TABLES = [
  "nav_item",
  "footer_link",
  "sys_language",
  "lang_entry",
  "currency",
  "site_config",
  "dict_item",
  "area_code",
  "client_version",
  "image_address",
  // Not one of decision 003's tables, but listing configuration all the same (markets listed,
  // halted, their rules), written rarely and read by every market list.
  "market_symbol",
] as const;

/**
 * The configuration's version (issue 13, docs/decisions/035-configuration-from-memory.md): the
 * engine answers the configuration tables from memory, so it must learn of every change, also
 * one an operator makes with SQL. `config_version` holds one counter; a statement trigger on each
 * configuration table raises it and notifies `config_changed` in the writing transaction, so the
 * notification is delivered when (and only if) the change commits. The engine listens, and also
 * reads the counter now and then in case a notification was missed (a dropped connection).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table if not exists config_version (
      id smallint primary key check (id = 1),
      version bigint not null
    );
    insert into config_version (id, version) values (1, 1) on conflict (id) do nothing;
    create or replace function config_changed() returns trigger language plpgsql as $$
    begin
      update config_version set version = version + 1 where id = 1;
      perform pg_notify('config_changed', tg_table_name);
      return null;
    end
    $$;
  `.execute(db);
  for (const table of CONFIG_TABLES) {
    await sql`
      drop trigger if exists ${sql.raw(`${table}_config_changed`)} on ${sql.table(table)};
      create trigger ${sql.raw(`${table}_config_changed`)} after insert or update or delete or truncate on ${sql.table(table)}
        for each statement execute function config_changed();
    `.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of CONFIG_TABLES) await sql`drop trigger if exists ${sql.raw(`${table}_config_changed`)} on ${sql.table(table)}`.execute(db);
  await sql`drop function if exists config_changed(); drop table if exists config_version;`.execute(db);
}
