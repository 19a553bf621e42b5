import type { AreaCode } from "#protocol/config-tables";
import { endpoints } from "#protocol/endpoints";
import { LANGUAGE_TAGS, type LanguageCode } from "#protocol/languages";
import { callEndpoint } from "./api.server";
import { createCache } from "./cache.server";

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
  return rows
    .map((row) => {
      const country = names.of(row.country_code) ?? row.country_name;
      return { dial: row.dial_code, country: row.country_code, label: `${country} +${row.dial_code}`, min: row.phone_min_length, max: row.phone_max_length };
    })
    .sort((a, b) => a.label.localeCompare(b.label, LANGUAGE_TAGS[lang]));
}

/** Spec §5: a valid phone for its area code (length within the country's range). */
export function phoneFitsArea(areas: AreaCodeOption[], dial: string, phone: string): boolean {
  const matching = areas.filter((a) => a.dial === dial);
  return matching.length > 0 && matching.some((a) => phone.length >= a.min && phone.length <= a.max);
}
