import type { Insertable } from "kysely";
import type { CommandJournalTable, IdempotencyKeyTable } from "../store/schema";
import type { ProjectionBatch } from "./projector";
import { KEY_REPLACES_EXPIRED } from "./key-rows";
import { insertStatement } from "./sql-script";

/** The query-table rows one area (the ledger, spot, …) adds to a batch, as statements to run in order. */
export interface ProjectionRows {
  statements(): string[];
  /**
   * Takes in the same kind's rows of the next batch, so that the two write as one: the same
   * tables afterwards as the two scripts one after the other (decision 017, step 18). A kind
   * without it is written batch by batch.
   */
  absorb?(later: this): void;
}

/** A kind of rows: made once per batch on first use; batches write the kinds by ascending `order`. */
export interface RowsKind<T extends ProjectionRows> {
  readonly name: string;
  readonly order: number;
  create(): T;
}

/**
 * What one group-commit batch writes (decisions 012 and 017), in two parts:
 *
 * - the journal's: the accepted commands with their sequence numbers (and the idempotency key
 *   each was asked with, with its first answer), and the keys of refused requests, committed
 *   before any answer of the batch is sent;
 * - the projection's: each area's query-table rows (`rows(kind)`), added as each command is
 *   applied (so they show the state right after it) and written behind the answer by the
 *   projector once the journal part is durable.
 */
export class CommandBatch implements ProjectionBatch {
  private readonly parts = new Map<RowsKind<ProjectionRows>, ProjectionRows>();
  private readonly commands: Array<Insertable<CommandJournalTable>> = [];
  private readonly keys: Array<Insertable<IdempotencyKeyTable>> = [];
  /** Operators' audit rows of the batch's commands (decision 043): committed with the commands. */
  private readonly audits: Array<Record<string, unknown>> = [];
  private journalTaken = false;
  /** Sequence number of the last command in the batch (0: none accepted). */
  lastSeq = 0;
  /** When the batch's last command was applied (ms), for the projection's lag. */
  appliedAt = 0;
  /** Accepted commands in the batch. */
  size = 0;

  /** The batch's rows of one kind (made on first use). */
  rows<T extends ProjectionRows>(kind: RowsKind<T>): T {
    let part = this.parts.get(kind);
    if (!part) {
      part = kind.create();
      this.parts.set(kind, part);
    }
    return part as T;
  }

  /**
   * An accepted command for the journal (decision 017), in sequence order; `kept`: the
   * idempotency key it was asked with and its first answer (`JournalKept` as JSON).
   */
  appendCommand(seq: number, at: string, command: unknown, kept: string | null = null): void {
    this.commands.push({ seq: String(seq), at, command: JSON.stringify(command), kept });
    this.noteSeq(seq);
  }

  /**
   * A first answer to keep for retries with the same member and key, written with the journal: a
   * refusal's (an accepted command's key rides in its journal row and is projected).
   */
  insertKey(row: Insertable<IdempotencyKeyTable>): void {
    this.keys.push(row);
  }

  /** An operator's audit row of an accepted command, written with the journal (the same transaction). */
  insertAudit(row: Record<string, unknown>): void {
    this.audits.push(row);
  }

  /** An accepted command whose rows this batch projects (a replayed one is already in the journal). */
  noteSeq(seq: number): void {
    this.lastSeq = seq;
    this.appliedAt = Date.now();
    this.size++;
  }

  /**
   * The journal part's statements, for the group commit's script: given once, however many of
   * the batch's commands ask (the others add nothing).
   */
  journalStatements(): string[] {
    if (this.journalTaken) return [];
    this.journalTaken = true;
    const script = [
      insertStatement("command_journal", this.commands),
      insertStatement("idempotency_key", this.keys, KEY_REPLACES_EXPIRED),
      insertStatement("operator_audit", this.audits),
    ].filter((x): x is string => x !== null);
    // Handed over: the batch now waits for the projector with its table rows only.
    this.commands.length = 0;
    this.keys.length = 0;
    this.audits.length = 0;
    return script;
  }

  /** An empty batch to merge this one and the next ones into (the projector's write). */
  emptyCopy(): CommandBatch {
    return new CommandBatch();
  }

  /**
   * Takes in a batch's projection (its journal part committed), after what this one holds, so
   * that one statement per table writes both (decision 017, step 18: parsing, planning and
   * committing the statements were a third of Postgres's time per order). Its rows are copied
   * into this batch's own (the batch taken in is not changed). False, and nothing changed, when
   * one of its kinds of rows cannot be merged.
   */
  absorb(later: ProjectionBatch): boolean {
    if (!(later instanceof CommandBatch)) return false;
    for (const part of later.parts.values()) if (!part.absorb) return false;
    for (const [kind, part] of later.parts) this.rows(kind).absorb!(part);
    this.lastSeq = later.lastSeq;
    this.appliedAt = later.appliedAt;
    this.size += later.size;
    return true;
  }

  /** The projection part as statements to run in order (the projector joins batches into one script). */
  projectionStatements(): string[] {
    return [...this.parts].sort(([a], [b]) => a.order - b.order).flatMap(([, part]) => part.statements());
  }
}
