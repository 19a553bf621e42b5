import type { Kysely } from "kysely";
import type { TransferEvent } from "../core/ledger/ledger";
import type { Command } from "../core/exchange/commands";
import type { CoreEvent } from "../core/exchange/events";
import type { ExchangeCore, OutcomeOf } from "../core/exchange/exchange-core";
import type { Database } from "../store/schema";
import type { CommandBatch } from "./command-batch";

/** A command the core accepted, with what it did. */
export type Accepted = Extract<OutcomeOf<Command>, { code: "OK" }>;

/** One accepted command in the core's event stream (DurableCore.onEvents). */
export interface AppliedCommand {
  readonly seq: number;
  /** When it was applied (ms; the journal's time). */
  readonly at: number;
  /** The group-commit batch it joined: what it did may be published once that batch is committed. */
  readonly batch: number;
  readonly command: Command;
  /** What it did, in order (core/exchange/events.ts). */
  readonly events: readonly CoreEvent[];
}

/** What a product's projection is given for one accepted command. */
export interface ProjectionContext {
  readonly core: ExchangeCore;
  /** The batch whose rows it adds to (`batch.rows(KIND)`). */
  readonly batch: CommandBatch;
  readonly seq: number;
  /** When the command was applied (the journal's time). */
  readonly at: Date;
  /** The same time as the tables store it (ISO 8601), for rows: made once per command. */
  readonly stamp: string;
  /** The member's history now waits for this command's rows (DurableCore.projectedFor). */
  touched(memberId: string): void;
  /**
   * The ledger transfers the command made: their rows and the balances and holds they touched.
   * Transfers for which `factElsewhere` answers true change the balances' rows only: their fact
   * is a row of the product's own (spot's order holds: the order's row and its trades).
   */
  transfers(events: readonly TransferEvent[], factElsewhere?: (transfer: TransferEvent) => boolean): void;
}

/**
 * An area of the exchange that plugs into the durable layer (decision 017): the core applies its
 * commands; the area projects the accepted ones into its query tables, and restores its part of
 * the core from those tables when a start has no usable snapshot. Funds (the ledger's own
 * product, always plugged in by the layer) and spot are the first two; contracts, margin, loans,
 * earn and OTC follow the same shape.
 */
export interface Product {
  readonly name: string;
  /** The commands it owns: the durable layer refuses to apply a command no plugged-in product owns. */
  readonly commands: ReadonlyArray<Command["type"]>;
  /** Adds the table rows of an accepted command it owns to the batch. */
  project(command: Command, outcome: Accepted, ctx: ProjectionContext): void;
  /**
   * Commands of other products whose effects it writes rows of its own for (the wallet's mails
   * of a credited deposit, which funds owns): `follow` adds them to the batch after the owner's
   * `project`, in the same transaction, so they too are written exactly once per command.
   */
  readonly follows?: ReadonlyArray<Command["type"]>;
  follow?(command: Command, outcome: Accepted, ctx: ProjectionContext): void;
  /** Restores its part of the core from its tables (assets are restored before any product). */
  restoreFromTables(core: ExchangeCore, db: Kysely<Database>): Promise<void>;
  /** Opens what an operator configured in its tables while the engine was stopped (true: something). */
  openConfiguredSince?(core: ExchangeCore, db: Kysely<Database>): Promise<boolean>;
}
