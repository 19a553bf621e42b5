import pg from "pg";

/**
 * Where Postgres's time per order goes, statement by statement (`pg_stat_statements`: each
 * statement of a script is counted on its own), when the server has the extension loaded
 * (`shared_preload_libraries = 'pg_stat_statements'`; otherwise the bench says so and goes on).
 * Execution time only: parsing and planning a statement, and committing, are not in it.
 * Decision 017 step 18 found with it that the notices, not the indexes, were the dearest write.
 */
export interface StatementMeter {
  /** Forgets what was counted so far (before a load). */
  reset(): Promise<void>;
  /** Adds what was counted since the last reset to the totals (after a load). */
  take(): Promise<void>;
  /** The dearest statements, per unit of work: "insert into spot_order 43 µs, …". */
  describe(units: number, top?: number): string;
  close(): Promise<void>;
}

/** A meter on the bench's database, or null when the server has no `pg_stat_statements` loaded. */
export async function statementMeter(databaseUrl: string): Promise<StatementMeter | null> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query("create extension if not exists pg_stat_statements");
    await client.query("select pg_stat_statements_reset()");
  } catch {
    await client.end();
    return null;
  }
  const totals = new Map<string, number>();
  return {
    async reset() {
      await client.query("select pg_stat_statements_reset()");
    },
    async take() {
      const { rows } = await client.query<{ query: string; ms: number }>(
        `select query, total_exec_time as ms from pg_stat_statements where dbid = (select oid from pg_database where datname = current_database())`,
      );
      for (const row of rows) {
        const kind = statementKind(row.query);
        totals.set(kind, (totals.get(kind) ?? 0) + Number(row.ms));
      }
    },
    describe(units, top = 9) {
      return [...totals]
        .sort((a, b) => b[1] - a[1])
        .slice(0, top)
        .map(([kind, ms]) => `${kind} ${Math.round((ms * 1000) / units)} µs`)
        .join(", ");
    },
    async close() {
      await client.end();
    },
  };
}

/** "insert into spot_order", "update ledger_account", "select device_session": what a statement does, to which table. */
export function statementKind(query: string): string {
  const text = query.replace(/\s+/g, " ").trim().toLowerCase();
  const write = /^(insert into|update|delete from) "?([a-z_]+)"?/.exec(text);
  if (write) return `${write[1]} ${write[2]}`;
  // A read names its first table (not a function such as json_array_elements_text(…)).
  const read = text.startsWith("select") ? /(?:from|join) "?([a-z_]+)"?(?![a-z_]*\s*\()/.exec(text) : null;
  return read ? `select ${read[1]}` : text.slice(0, 30);
}
