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
