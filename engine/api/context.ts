import type { FastifyInstance } from "fastify";
import type { Kysely } from "kysely";
import type { Database } from "../store/schema";

/** What every API module gets: the HTTP app, the API head of its paths and the database. */
export interface ApiContext {
  app: FastifyInstance;
  apiHead: string;
  db: Kysely<Database>;
}
