import { sql, type Kysely } from "kysely";

/**
 * Members, their device sessions (each holds one access and one refresh token, stored hashed),
 * verification codes, the outbox of e-mails and text messages, and the login log.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table member (
      id bigserial primary key,
      uid varchar(12) not null unique,
      email varchar(254) unique,
      area_code varchar(4),
      phone varchar(20),
      password_hash varchar(200) not null,
      trade_password_hash varchar(200),
      google_secret varchar(64),
      google_pending_secret varchar(64),
      anti_code varchar(20),
      avatar varchar(300),
      is_merchant smallint not null default 0,
      supported smallint not null default 0,
      invite_code varchar(16) not null unique,
      invited_by bigint references member (id),
      chat_key varchar(40) not null unique,
      created_at timestamptz not null default now(),
      password_changed_at timestamptz not null default now(),
      unique (area_code, phone),
      check (email is not null or phone is not null)
    );

    create table device_session (
      id bigserial primary key,
      member_id bigint not null references member (id),
      device_id varchar(64) not null,
      name varchar(60) not null,
      user_agent varchar(400) not null default '',
      ip varchar(64) not null default '',
      access_token_hash char(64) not null unique,
      access_expires_at timestamptz not null,
      refresh_token_hash char(64) not null unique,
      refresh_expires_at timestamptz not null,
      created_at timestamptz not null default now(),
      last_seen_at timestamptz not null default now(),
      revoked_at timestamptz
    );
    create index device_session_member on device_session (member_id) where revoked_at is null;

    create table verification_code (
      id bigserial primary key,
      destination varchar(270) not null,
      purpose varchar(20) not null,
      code_hash char(64) not null,
      attempts smallint not null default 0,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null,
      consumed_at timestamptz
    );
    create index verification_code_destination on verification_code (destination, purpose, created_at desc);

    create table outbox_message (
      id bigserial primary key,
      channel varchar(8) not null check (channel in ('email', 'sms')),
      destination varchar(270) not null,
      subject varchar(200) not null,
      body text not null,
      created_at timestamptz not null default now(),
      delivered_at timestamptz,
      delivery_error varchar(400)
    );
    create index outbox_message_destination on outbox_message (destination, id desc);

    create table login_log (
      id bigserial primary key,
      member_id bigint not null references member (id),
      ip varchar(64) not null,
      user_agent varchar(400) not null,
      device_name varchar(60) not null,
      created_at timestamptz not null default now()
    );
    create index login_log_member on login_log (member_id, id desc);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table login_log, outbox_message, verification_code, device_session, member`.execute(db);
}
