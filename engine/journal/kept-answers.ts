/**
 * First answers to members' keyed requests, in memory, for the keys' window (decision 017, "the
 * steps after" 2): a retry is answered from here without asking the database, and a new key is
 * known to be new without asking it either, as long as nothing younger than the window was let
 * go. Entries are kept in the order they were answered (a `Map` keeps insertion order), so the
 * oldest leave first: by age once older than the window, or early when more than `cap` are held
 * (a busy exchange: a 24 h window at thousands of orders a second is far past any memory).
 *
 * An entry let go early means a miss is no longer proof that a key is new: `mayHaveLetGo` says
 * so, and the caller then asks the table (`idempotency_key`), as every request did before. An
 * entry is let go early only once its table row is written (`seq` at or before the projection's
 * cursor), so the table always has what memory no longer does.
 */
export interface KeptAnswer {
  /** What the key was first used for (`requestFingerprint`); null on rows older than migration 011. */
  fingerprint: string | null;
  /** The first answer, as JSON. */
  response: string;
  /** When it was answered (ms). */
  at: number;
  /** The journal's sequence number whose rows include the key's table row (0: written with the journal). */
  seq: number;
}

export interface KeptAnswersOptions {
  /** How long a key is answered for (ms): a retry later than this acts again (API documentation). */
  windowMs: number;
  /** Entries held at most. */
  cap: number;
}

/** The keys' window: a day, as payment APIs keep theirs. */
export const KEY_WINDOW_MS = 24 * 60 * 60 * 1000;
/** ~400 bytes an entry: ~80 MB at most. */
export const KEPT_ANSWERS_CAP = 200_000;

export class KeptAnswers {
  private readonly entries = new Map<string, KeptAnswer>();
  /**
   * Answers younger than this (ms) may have been let go (held no more while still in the window):
   * a miss must then be asked of the table. -Infinity while nothing was let go.
   */
  private letGoUpTo = Number.NEGATIVE_INFINITY;
  /** Until the start has loaded the table's recent keys, every miss is asked of the table. */
  private tableLoaded = false;

  constructor(private readonly options: KeptAnswersOptions) {}

  get size(): number {
    return this.entries.size;
  }

  /** The first answer to `id` (`member:key`), if it is held and still in the window. */
  get(id: string, now: number): KeptAnswer | undefined {
    const entry = this.entries.get(id);
    return entry && entry.at > now - this.options.windowMs ? entry : undefined;
  }

  /** Whether a key missing here might still have an answer in the table. */
  mayHaveLetGo(now: number): boolean {
    return !this.tableLoaded || this.letGoUpTo > now - this.options.windowMs;
  }

  /**
   * Holds a first answer (a retry's answer is never held again: the first one stays). `projected`
   * is the projection's cursor: entries beyond it are not let go early.
   */
  keep(id: string, answer: KeptAnswer, now: number, projected: number): void {
    const held = this.entries.get(id);
    if (held === undefined || held.at <= now - this.options.windowMs) {
      // A key used again after its window starts a new one: the old answer goes, and the new one
      // is held as the newest (entries stay in the order they were answered).
      this.entries.delete(id);
      this.entries.set(id, answer);
    }
    this.trim(now, projected);
  }

  /**
   * The start's load of the table's recent keys, oldest first, read while the engine served.
   * What memory holds meanwhile (the journal's tail, requests answered since) is as new or newer
   * and wins over a row of the same key. `complete`: every key of the window was read (none was
   * left in the table unread). `projected`: the projection's cursor, as for `keep`.
   */
  loaded(rows: Iterable<[id: string, answer: KeptAnswer]>, complete: boolean, now: number, projected: number): void {
    const since = now - this.options.windowMs;
    const held = [...this.entries];
    this.entries.clear();
    let oldest = Number.POSITIVE_INFINITY;
    for (const [id, answer] of rows) {
      oldest = Math.min(oldest, answer.at);
      // A row that left the window while the load ran answers nothing.
      if (answer.at > since) this.entries.set(id, answer);
    }
    for (const [id, answer] of held) {
      this.entries.delete(id);
      this.entries.set(id, answer);
    }
    // Keys older than the oldest row read may be in the table only (the load stopped at its cap);
    // what was let go while the load ran stays let go.
    if (!complete) this.letGoUpTo = Math.max(this.letGoUpTo, oldest === Number.POSITIVE_INFINITY ? now : oldest);
    this.tableLoaded = true;
    this.trim(now, projected);
  }

  /** Drops what left the window, then the oldest beyond the cap whose rows are in the table. */
  private trim(now: number, projected: number): void {
    const since = now - this.options.windowMs;
    for (const [id, entry] of this.entries) {
      if (entry.at > since) {
        if (this.entries.size <= this.options.cap || entry.seq > projected) return;
        this.letGoUpTo = Math.max(this.letGoUpTo, entry.at);
      }
      this.entries.delete(id);
    }
  }
}
