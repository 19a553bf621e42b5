import type { AreaCode } from "#protocol/config-tables";
import { endpoints } from "#protocol/endpoints";
import { LANGUAGE_TAGS, type LanguageCode } from "#protocol/languages";
import { callEndpoint } from "../engine/api.server";
import { createCache } from "../platform/cache.server";

const cache = createCache<AreaCode[]>(() => 10 * 60_000);

export interface AreaCodeOption {
  dial: string;
  country: string;
  label: string;
  min: number;
  max: number;
}

/** Phone area codes with country names in the visitor's language (Intl), sorted by name. */
export async function loadAreaCodes(lang: LanguageCode): Promise<AreaCodeOption[]> {
  const rows = await cache.get("areas", () => callEndpoint(endpoints.areaCodes, {}, { lang }));
  const names = new Intl.DisplayNames([LANGUAGE_TAGS[lang]], { type: "region" });
  // Countries sharing a dial code (US and Canada: +1) become one option, so the picker's value
  // (the dial code) always selects the option it came from.
  const byDial = new Map<string, AreaCodeOption & { countries: string[] }>();
  for (const row of rows) {
    const country = names.of(row.country_code) ?? row.country_name;
    const existing = byDial.get(row.dial_code);
    if (existing) {
      existing.countries.push(country);
      existing.min = Math.min(existing.min, row.phone_min_length);
      existing.max = Math.max(existing.max, row.phone_max_length);
    } else {
      byDial.set(row.dial_code, {
        dial: row.dial_code,
        country: row.country_code,
        label: "",
        min: row.phone_min_length,
        max: row.phone_max_length,
        countries: [country],
      });
    }
  }
  const collator = new Intl.Collator(LANGUAGE_TAGS[lang]);
  return [...byDial.values()]
    .map(({ countries, ...option }) => ({ ...option, label: `${countries.sort(collator.compare).join(", ")} +${option.dial}` }))
    .sort((a, b) => collator.compare(a.label, b.label));
}

/** Spec §5: a valid phone for its area code (length within the country's range). */
export function phoneFitsArea(areas: AreaCodeOption[], dial: string, phone: string): boolean {
  const matching = areas.filter((a) => a.dial === dial);
  return matching.length > 0 && matching.some((a) => phone.length >= a.min && phone.length <= a.max);
}
