/**
 * Lines of tab-separated fields: how a million rows travel cheaply, in a core snapshot's blocks
 * and in the paged reads of a restore from the tables (decisions 012 and 017). `each` gets the
 * `width` fields of every line in one reused array (no string array per line); a line with
 * fewer fields leaves the rest empty.
 */
export function eachTabLine(text: string, width: number, each: (fields: string[]) => void): void {
  const fields: string[] = new Array<string>(width);
  let at = 0;
  while (at < text.length) {
    let end = text.indexOf("\n", at);
    if (end < 0) end = text.length;
    for (let i = 0; i < width; i++) {
      let stop = i === width - 1 ? end : text.indexOf("\t", at);
      if (stop < 0 || stop > end) stop = end;
      fields[i] = text.slice(at, stop);
      at = Math.min(stop + 1, end);
    }
    each(fields);
    at = end + 1;
  }
}

/** Digits that fit a double exactly: read as a number, then made a bigint (no string made). */
const SEEN = 4096;
const EXACT_DIGITS = 15;

/**
 * A reader over the same lines, field by field, for the hot restores (a million order lines):
 * a field that is only compared or turned into a number is read in place, without the
 * substring `eachTabLine` would make for it. Call `next()` before each line's fields; each
 * field read moves past its tab.
 */
export class TabCursor {
  private at = 0;
  private end = -1;
  /**
   * The integers read last, by value modulo their size: amounts repeat down a snapshot (lot
   * sizes, round quantities), and a bigint is immutable, so one instance serves every repeat
   * (fewer allocations for the collector to copy in a million-line restore).
   */
  private readonly seenNumbers = new Float64Array(SEEN).fill(NaN);
  private readonly seenBigints: bigint[] = new Array<bigint>(SEEN).fill(0n);

  constructor(private readonly text: string) {}

  /** Moves to the next line; false at the end of the text. */
  next(): boolean {
    if (this.end >= 0) this.at = this.end + 1;
    if (this.at >= this.text.length) return false;
    const end = this.text.indexOf("\n", this.at);
    this.end = end < 0 ? this.text.length : end;
    return true;
  }

  private stop(): number {
    const tab = this.text.indexOf("\t", this.at);
    return tab < 0 || tab > this.end ? this.end : tab;
  }

  private skip(stop: number): void {
    this.at = Math.min(stop + 1, this.end);
  }

  /** The next field as a string. */
  string(): string {
    const stop = this.stop();
    const field = this.text.slice(this.at, stop);
    this.skip(stop);
    return field;
  }

  /** Whether the line has a field left (a trailing field only some lines carry). */
  more(): boolean {
    return this.at < this.end;
  }

  /** Whether the next field is exactly `expected` (read past it either way). */
  is(expected: string): boolean {
    const stop = this.stop();
    const same = stop - this.at === expected.length && this.text.startsWith(expected, this.at);
    this.skip(stop);
    return same;
  }

  /** The next field as an integer, or null when it is `-` (none). */
  bigintOrDash(): bigint | null {
    if (this.text.charCodeAt(this.at) === 45 && this.stop() === this.at + 1) {
      this.skip(this.at + 1);
      return null;
    }
    return this.bigint();
  }

  /**
   * The next field as an integer (`-` and digits, as `bigint.toString()` writes it); `same`, when
   * the field has its value, is answered instead of a new bigint (a price repeated down a level).
   */
  bigint(same?: bigint): bigint {
    const stop = this.stop();
    const text = this.text;
    let i = this.at;
    const negative = text.charCodeAt(i) === 45;
    if (negative) i++;
    if (stop - i > 0 && stop - i <= EXACT_DIGITS) {
      let n = 0;
      for (; i < stop; i++) {
        const digit = text.charCodeAt(i) - 48;
        if (digit < 0 || digit > 9) throw new SyntaxError(`not an integer: ${text.slice(this.at, stop)}`);
        n = n * 10 + digit;
      }
      if (negative) n = -n;
      this.skip(stop);
      if (same !== undefined && Number(same) === n) return same;
      const slot = (negative ? -n : n) % SEEN;
      if (this.seenNumbers[slot] === n) return this.seenBigints[slot]!;
      const value = BigInt(n);
      this.seenNumbers[slot] = n;
      this.seenBigints[slot] = value;
      return value;
    }
    const value = BigInt(text.slice(this.at, stop));
    this.skip(stop);
    return value;
  }
}
