import { sql, type Kysely } from "kysely";

/**
 * A member's own id for an order (issue 11): sent with the order, echoed in its answer and in
 * the order history. Not unique: the idempotency key is what keeps a retried post from placing
 * twice; this id is the member's label (docs/decisions/022-client-order-id.md).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table spot_order add column if not exists client_order_id varchar(36)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table spot_order drop column if exists client_order_id`.execute(db);
}
