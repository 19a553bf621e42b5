import { languageEntrySchema } from "#protocol/config-tables";

export type Messages = { [key: string]: string | Messages };

const KEY_PATH = /^[a-z0-9_]+(\.[a-z0-9_]+){0,5}$/i;

/**
 * Overlays the engine's language entries on the shipped texts. An entry that does not validate,
 * whose key is malformed, or that would replace a whole group of texts is skipped (spec §8:
 * "a failed language-entry evaluation is skipped"); the shipped text stays.
 */
export function applyLanguageEntries(base: Messages, entries: readonly unknown[]): { messages: Messages; skipped: number } {
  const messages = structuredClone(base);
  let skipped = 0;
  for (const raw of entries) {
    const parsed = languageEntrySchema.safeParse(raw);
    if (!parsed.success || !KEY_PATH.test(parsed.data.label) || !setText(messages, parsed.data.label.split("."), parsed.data.text)) {
      skipped++;
    }
  }
  return { messages, skipped };
}

function setText(target: Messages, path: string[], text: string): boolean {
  let node: Messages = target;
  for (const segment of path.slice(0, -1)) {
    const next = node[segment];
    if (typeof next === "string") return false;
    node = next ?? (node[segment] = {});
  }
  const leaf = path[path.length - 1]!;
  if (typeof node[leaf] === "object") return false;
  node[leaf] = text;
  return true;
}
