// Merges new texts into the nine locale files at once: `node scripts/locale-merge.mjs texts.json`
// where texts.json is { "en": { "section": { "key": "…" } }, "de": { … }, … } with all nine
// languages (`--engine`: the engine's catalogs, engine/locales). Each file is read, deep-merged and written in one go (several editors can use it
// side by side), keeping the existing key order and adding new keys at the end of their object.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const LANGS = ["zh_cn", "zh_tw", "en", "kr", "jp", "es", "de", "fr", "tr"];
const engine = process.argv.includes("--engine");
const source = process.argv.slice(2).find((arg) => !arg.startsWith("--"));
if (!source) {
  console.error("usage: node scripts/locale-merge.mjs [--engine] texts.json");
  process.exit(2);
}
const texts = JSON.parse(readFileSync(source, "utf8"));
const missing = LANGS.filter((l) => !texts[l]);
if (missing.length) {
  console.error(`texts for every language are needed; missing: ${missing.join(", ")}`);
  process.exit(2);
}

function merge(target, extra, at) {
  for (const [key, value] of Object.entries(extra)) {
    if (value && typeof value === "object") {
      if (typeof target[key] === "string") throw new Error(`${at}${key} is a text, not a section`);
      target[key] ??= {};
      merge(target[key], value, `${at}${key}.`);
    } else target[key] = value;
  }
}

for (const lang of LANGS) {
  const file = path.resolve(engine ? "engine/locales" : "app/locales", `${lang}.json`);
  const current = JSON.parse(readFileSync(file, "utf8"));
  merge(current, texts[lang], `${lang}: `);
  writeFileSync(file, `${JSON.stringify(current, null, 2)}\n`);
}
console.log(`merged into ${LANGS.length} locale files`);
