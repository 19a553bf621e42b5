import { sql, type Kysely } from "kysely";

/** Uploaded files (checked by content) and identity-verification submissions with their review. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table upload (
      id bigserial primary key,
      member_id bigint not null references member (id),
      purpose varchar(20) not null,
      stored_name varchar(200) not null,
      mime varchar(40) not null,
      size integer not null,
      sha256 char(64) not null,
      created_at timestamptz not null default now()
    );
    create index upload_member on upload (member_id);

    create table kyc_submission (
      id bigserial primary key,
      member_id bigint not null references member (id),
      front_upload_id bigint not null references upload (id),
      back_upload_id bigint not null references upload (id),
      hand_upload_id bigint not null references upload (id),
      phone varchar(20) not null,
      status smallint not null default 1 check (status in (1, 2, 3)),
      reason varchar(300),
      submitted_at timestamptz not null default now(),
      reviewed_at timestamptz
    );
    create index kyc_submission_member on kyc_submission (member_id, id desc);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table kyc_submission, upload`.execute(db);
}
