import { LANGUAGE_TAGS, type LanguageCode } from "#protocol/languages";

/** A date and time in the member's language, in UTC (server and browser render the same text). */
export function formatDateTime(iso: string, lang: LanguageCode): string {
  return `${new Date(iso).toLocaleString(LANGUAGE_TAGS[lang], { timeZone: "UTC", dateStyle: "medium", timeStyle: "short" })} UTC`;
}

/** A date in the member's language, in UTC. */
export function formatDate(iso: string, lang: LanguageCode): string {
  return new Date(iso).toLocaleDateString(LANGUAGE_TAGS[lang], { timeZone: "UTC", dateStyle: "long" });
}

/** A date and time to the second, compact and in the member's language, in UTC (order and trade records). */
export function formatDateTimeSeconds(iso: string, lang: LanguageCode): string {
  const text = new Date(iso).toLocaleString(LANGUAGE_TAGS[lang], {
    timeZone: "UTC",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
  });
  return `${text} UTC`;
}
