import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
} from "kysely";
import type { EmbeddedClient } from "./pglite-thread";

/**
 * A Kysely dialect for embedded PGlite (in its own thread: pglite-thread.ts). PGlite is one connection, so the driver hands it out to
 * one user at a time (a FIFO lock): a transaction holds it from BEGIN to COMMIT.
 * NOTE: inside a transaction, query through the transaction object only; a query on the outer
 * `Kysely` instance would wait for the lock the transaction holds.
 */
export class PGliteDialect implements Dialect {
  constructor(private readonly client: EmbeddedClient) {}
  createAdapter() {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    return new PGliteDriver(this.client);
  }
  createIntrospector(db: Kysely<unknown>) {
    return new PostgresIntrospector(db);
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
}

class PGliteDriver implements Driver {
  private queue: Promise<void> = Promise.resolve();
  private readonly connection: PGliteConnection;

  constructor(private readonly client: EmbeddedClient) {
    this.connection = new PGliteConnection(client);
  }

  async init(): Promise<void> {
    await this.client.waitReady;
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    let release!: () => void;
    const previous = this.queue;
    this.queue = new Promise<void>((resolve) => (release = resolve));
    await previous;
    this.connection.release = release;
    return this.connection;
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw("begin"));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw("commit"));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw("rollback"));
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    (connection as PGliteConnection).release?.();
  }

  async destroy(): Promise<void> {
    await this.client.close();
  }
}

class PGliteConnection implements DatabaseConnection {
  release: (() => void) | undefined;
  constructor(private readonly client: EmbeddedClient) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    // Like node-postgres: without parameters the simple protocol runs, which allows several
    // statements (migrations); with parameters the extended protocol runs one statement.
    const result = compiled.parameters.length === 0 ? await this.client.exec(compiled.sql) : await this.client.query(compiled.sql, compiled.parameters);
    return {
      rows: result.rows as R[],
      numAffectedRows: result.affectedRows === undefined ? undefined : BigInt(result.affectedRows),
    };
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error("PGlite dialect does not stream; page the query instead");
  }
}
