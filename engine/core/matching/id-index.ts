/**
 * Records by their string id: what the order book finds its resting orders by (a million at a
 * start). A JavaScript `Map` of a million fresh strings cost ~0.65 µs an insert in a restore
 * (hashing each new string, its chained entries, the collector's old-to-new references from one
 * big table); this is an open-addressing table with linear probing whose slots are two flat
 * arrays: each record's 32-bit hash (0: an empty slot) and the record itself, whose own `id` is
 * the key. A probe compares hashes first and reads a record only when they are equal; a delete
 * shifts the probe run back (no tombstones), so a table that lived through a million cancels
 * probes as a fresh one. Half full at most: it doubles beyond that, rehashing from the kept
 * hashes (no string is read again). Decision 017, step 16.
 */
export class IdIndex<T extends { readonly id: string }> {
  private hashes: Int32Array;
  private records: Array<T | undefined>;
  private mask: number;
  private count = 0;

  constructor(capacity = 16) {
    let slots = 16;
    while (slots < capacity * 2) slots *= 2;
    this.hashes = new Int32Array(slots);
    this.records = new Array<T | undefined>(slots).fill(undefined);
    this.mask = slots - 1;
  }

  /** Makes room for `count` records in all (a restore that knows how many come): no growing on the way. */
  reserve(count: number): void {
    let slots = this.mask + 1;
    while (count * 2 > slots) slots *= 2;
    if (slots > this.mask + 1) this.rehash(slots);
  }

  get size(): number {
    return this.count;
  }

  get(id: string): T | undefined {
    const slot = this.find(id, hashOf(id));
    return slot < 0 ? undefined : this.records[slot];
  }

  has(id: string): boolean {
    return this.find(id, hashOf(id)) >= 0;
  }

  /** Adds `record` under its id, or replaces the record with that id. */
  set(record: T): void {
    const id = record.id;
    const hash = hashOf(id);
    const hashes = this.hashes;
    const mask = this.mask;
    let slot = hash & mask;
    for (let h = hashes[slot]!; h !== 0; h = hashes[slot]!) {
      if (h === hash && this.records[slot]!.id === id) {
        this.records[slot] = record;
        return;
      }
      slot = (slot + 1) & mask;
    }
    hashes[slot] = hash;
    this.records[slot] = record;
    if (++this.count * 2 > mask + 1) this.rehash((mask + 1) * 2);
  }

  /** Removes the record with `id`; answers whether there was one. */
  delete(id: string): boolean {
    let slot = this.find(id, hashOf(id));
    if (slot < 0) return false;
    this.count--;
    const hashes = this.hashes;
    const records = this.records;
    const mask = this.mask;
    // Backward shift: every record after the hole in its probe run that may sit in the hole
    // (its home slot is not between the hole and itself) moves into it, and leaves a new hole.
    for (let next = (slot + 1) & mask; ; next = (next + 1) & mask) {
      const h = hashes[next]!;
      if (h === 0) break;
      const home = h & mask;
      const stays = slot <= next ? slot < home && home <= next : slot < home || home <= next;
      if (stays) continue;
      hashes[slot] = h;
      records[slot] = records[next];
      slot = next;
    }
    hashes[slot] = 0;
    records[slot] = undefined;
    return true;
  }

  /** The slot holding `id` (-1: none). */
  private find(id: string, hash: number): number {
    const hashes = this.hashes;
    const mask = this.mask;
    let slot = hash & mask;
    for (let h = hashes[slot]!; h !== 0; h = hashes[slot]!) {
      if (h === hash && this.records[slot]!.id === id) return slot;
      slot = (slot + 1) & mask;
    }
    return -1;
  }

  private rehash(slots: number): void {
    const oldHashes = this.hashes;
    const oldRecords = this.records;
    const hashes = new Int32Array(slots);
    const records = new Array<T | undefined>(slots).fill(undefined);
    const mask = slots - 1;
    for (let i = 0; i < oldHashes.length; i++) {
      const h = oldHashes[i]!;
      if (h === 0) continue;
      let slot = h & mask;
      while (hashes[slot] !== 0) slot = (slot + 1) & mask;
      hashes[slot] = h;
      records[slot] = oldRecords[i];
    }
    this.hashes = hashes;
    this.records = records;
    this.mask = mask;
  }
}

/**
 * A string's 32-bit hash, never 0: FNV-1a over its UTF-16 code units, then mixed (murmur3's
 * finalizer) so that ids differing only in their last characters spread over the whole table.
 */
export function hashOf(id: string): number {
  let h = 0x811c9dc5 | 0;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h === 0 ? 1 : h;
}
