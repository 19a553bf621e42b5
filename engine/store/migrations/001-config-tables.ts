import { sql, type Kysely } from "kysely";

/** Configuration tables of spec §3, served by `cgform-api/getData/{tableId}`. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table nav_item (
      id serial primary key,
      pid integer not null default 0,
      nav_sort integer not null default 0,
      nav_show smallint not null default 1,
      nav_path varchar(300) not null,
      nav_code varchar(80) not null unique,
      nav_icon varchar(80)
    );
    create index nav_item_pid on nav_item (pid, nav_sort);

    create table footer_link (
      id serial primary key,
      group_code varchar(40) not null,
      link_code varchar(80) not null unique,
      link_path varchar(300) not null,
      link_sort integer not null default 0,
      link_show smallint not null default 1
    );

    create table sys_language (
      id serial primary key,
      label varchar(40) not null,
      text varchar(10) not null,
      value varchar(10) not null unique,
      sort integer not null default 0
    );

    create table lang_entry (
      id serial primary key,
      label varchar(120) not null,
      text varchar(2000) not null,
      value varchar(10) not null,
      unique (value, label)
    );

    create table currency (
      id serial primary key,
      exchange_value varchar(10) not null unique,
      quote_currency varchar(10) not null,
      exchange_code varchar(8) not null,
      rate numeric(30, 12) not null check (rate > 0),
      sort integer not null default 0
    );

    create table site_config (
      id serial primary key,
      config_key varchar(60) not null unique,
      config_value varchar(4000) not null
    );

    create table dict_item (
      id serial primary key,
      dict_code varchar(60) not null,
      item_value varchar(60) not null,
      item_text varchar(200) not null,
      item_key varchar(120) not null,
      sort integer not null default 0,
      unique (dict_code, item_value)
    );

    create table area_code (
      id serial primary key,
      country_code char(2) not null unique,
      country_name varchar(80) not null,
      dial_code varchar(6) not null,
      phone_min_length smallint not null,
      phone_max_length smallint not null,
      sort integer not null default 0
    );

    create table client_version (
      id serial primary key,
      client_type varchar(10) not null,
      version varchar(20) not null,
      version_code integer not null,
      force_update smallint not null default 0,
      download_url varchar(300) not null,
      release_note varchar(2000) not null,
      released_at timestamptz not null,
      unique (client_type, version_code)
    );

    create table image_address (
      id serial primary key,
      img_code varchar(60) not null unique,
      img_url varchar(300) not null,
      img_alt_key varchar(120) not null,
      sort integer not null default 0
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop table image_address, client_version, area_code, dict_item, site_config,
      currency, lang_entry, sys_language, footer_link, nav_item;
  `.execute(db);
}
