import type { Kysely, Transaction } from "kysely";
import type { ConfigSave, ConfigTables, EditableConfigTable } from "../../protocol/endpoints/config-admin";
import { ResultCode } from "../../protocol/result-codes";
import { Refusal } from "../locales/refusal";
import type { OperatorAct } from "../operators/audit";
import type { Database } from "../store/schema";

type Trx = Transaction<Database>;

/** The column whose value must be unique in each table (the code a page or a cookie names it by). */
const CODE_COLUMN = { nav_item: "nav_code", footer_link: "link_code", sys_language: "value", currency: "exchange_value" } as const;

/**
 * The configuration tables operators keep (issue 29, decision 044): the header's navigation, the
 * footer's links, the language switcher, the display currencies. A save or a removal and its audit
 * row (the row before and after) commit together; the tables' triggers (migration 027) move the
 * configuration version in the same transaction, so the engine's answers and every page follow
 * within seconds. The database's unique indexes settle two operators saving one code at once.
 */
export class ConfigAdmin {
  constructor(private readonly db: Kysely<Database>) {}

  async tables(): Promise<ConfigTables> {
    const [nav, footer, languages, currencies] = await Promise.all([
      this.db.selectFrom("nav_item").selectAll().orderBy("pid").orderBy("nav_sort").orderBy("id").execute(),
      this.db.selectFrom("footer_link").selectAll().orderBy("group_code").orderBy("link_sort").orderBy("id").execute(),
      this.db.selectFrom("sys_language").selectAll().orderBy("sort").orderBy("id").execute(),
      this.db.selectFrom("currency").selectAll().orderBy("sort").orderBy("id").execute(),
    ]);
    return {
      nav_item: nav,
      footer_link: footer,
      sys_language: languages as ConfigTables["sys_language"],
      // numeric(30,12) reads back with its trailing zeros: shown as typed.
      currency: currencies.map((c) => ({ ...c, rate: canonicalDecimal(String(c.rate)) })),
    };
  }

  /** Adds a row (no id) or changes one; answers its id. */
  async save(save: ConfigSave, now: number, act: OperatorAct): Promise<number> {
    const row = storedRow(save);
    try {
      return await this.db.transaction().execute(async (trx) => {
        if (save.table === "nav_item") await checkParent(trx, save.row.pid, save.id);
        const target = (id: number) => `config:${save.table}:${id}`;
        if (save.id === undefined) {
          const { id } = await trx
            .insertInto(save.table)
            .values(row as never)
            .returning("id")
            .executeTakeFirstOrThrow();
          await act.write(trx, target(id), null, row, now);
          return id;
        }
        const before = await trx.selectFrom(save.table).selectAll().where("id", "=", save.id).forUpdate().executeTakeFirst();
        if (!before) throw Refusal.plain(ResultCode.NOT_FOUND, `no ${save.table} row ${save.id}`, "NOT_FOUND");
        const was = shownRow(before as Record<string, unknown>);
        if (sameRow(was, row)) throw Refusal.plain(ResultCode.CONFLICT, `${save.table} row ${save.id} has these values already`, "DECIDED_ALREADY");
        await trx
          .updateTable(save.table)
          .set(row as never)
          .where("id", "=", save.id)
          .execute();
        await act.write(trx, target(save.id), was, row, now);
        return save.id;
      });
    } catch (error) {
      if (isUniqueViolation(error)) {
        const code = row[CODE_COLUMN[save.table]];
        throw Refusal.plain(ResultCode.CONFLICT, `${CODE_COLUMN[save.table]} ${String(code)} belongs to another row`, "CONFIG_TAKEN");
      }
      throw error;
    }
  }

  /** Removes a row no page needs: not a root with items under it, not the last language or currency. */
  async remove(table: EditableConfigTable, id: number, now: number, act: OperatorAct): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      // The table's rows are locked in order: two removals of the last two languages cannot both pass the count.
      const rows = await trx.selectFrom(table).selectAll().orderBy("id").forUpdate().execute();
      const row = rows.find((r) => r.id === id) as Record<string, unknown> | undefined;
      if (!row) throw Refusal.plain(ResultCode.NOT_FOUND, `no ${table} row ${id}`, "NOT_FOUND");
      if (table === "nav_item" && rows.some((r) => (r as { pid: number }).pid === id)) {
        throw Refusal.plain(ResultCode.CONFLICT, `nav_item ${id} has items under it: move or remove them first`, "CONFIG_IN_USE");
      }
      if ((table === "sys_language" || table === "currency") && rows.length === 1) {
        throw Refusal.plain(ResultCode.CONFLICT, `the last ${table} row stays: members need one`, "CONFIG_IN_USE");
      }
      await trx.deleteFrom(table).where("id", "=", id).execute();
      await act.write(trx, `config:${table}:${id}`, shownRow(row), null, now);
    });
  }
}

/** The row as its table stores it: flags as 0 or 1, no icon as null, the sort columns as given. */
function storedRow(save: ConfigSave): Record<string, string | number | null> {
  switch (save.table) {
    case "nav_item":
      return { ...save.row, nav_show: save.row.nav_show ? 1 : 0, nav_icon: save.row.nav_icon || null };
    case "footer_link":
      return { ...save.row, link_show: save.row.link_show ? 1 : 0 };
    case "sys_language":
      return { ...save.row };
    case "currency":
      return { ...save.row, rate: canonicalDecimal(save.row.rate) };
  }
}

/** A navigation item sits at the top (pid 0) or under a root that is not itself; a root with items under it stays a root. */
async function checkParent(trx: Trx, pid: number, id: number | undefined): Promise<void> {
  if (pid !== 0) {
    const parent = await trx.selectFrom("nav_item").select(["id", "pid"]).where("id", "=", pid).executeTakeFirst();
    if (!parent || parent.pid !== 0 || parent.id === id) {
      throw Refusal.plain(ResultCode.BAD_REQUEST, `nav_item ${pid} is not a root of the navigation`, "CONFIG_PARENT");
    }
  }
  if (pid !== 0 && id !== undefined) {
    const child = await trx.selectFrom("nav_item").select("id").where("pid", "=", id).executeTakeFirst();
    if (child) throw Refusal.plain(ResultCode.BAD_REQUEST, `nav_item ${id} has items under it: it stays a root`, "CONFIG_PARENT");
  }
}

/** A stored row without its id, its rate as typed (numeric(30,12) reads back with trailing zeros). */
function shownRow(stored: Record<string, unknown>): Record<string, unknown> {
  const { id: _id, ...row } = stored;
  return "rate" in row ? { ...row, rate: canonicalDecimal(String(row.rate)) } : row;
}

function sameRow(was: Record<string, unknown>, row: Record<string, unknown>): boolean {
  return Object.entries(row).every(([key, value]) => (was[key] ?? null) === (value ?? null));
}

/** A non-negative decimal without leading or trailing zeros ("0.920000000000" → "0.92"). */
function canonicalDecimal(value: string): string {
  const [whole = "0", fraction = ""] = value.split(".");
  const digits = whole.replace(/^0+(?=\d)/, "");
  const decimals = fraction.replace(/0+$/, "");
  return decimals ? `${digits}.${decimals}` : digits;
}

function isUniqueViolation(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "23505";
}
