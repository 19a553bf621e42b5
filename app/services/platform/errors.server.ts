import { data } from "@remix-run/node";
import { LANGUAGE_TAGS } from "#protocol/languages";
import { detectLanguage } from "./i18n.server";
import { LOCALE_FILES } from "./messages.server";

import type { UnreachableErrorData } from "~/lib/error-data";

/** A 503 answer in the visitor's language, built from the shipped texts only (no engine needed). */
export async function unreachableResponse(request: Request) {
  const lang = await detectLanguage(request);
  const errors = (LOCALE_FILES[lang].errors ?? LOCALE_FILES.en.errors) as Record<string, string>;
  const payload: UnreachableErrorData = {
    reason: "unreachable",
    langTag: LANGUAGE_TAGS[lang],
    title: errors.unreachable_title ?? "The exchange is unreachable",
    text: errors.unreachable_text ?? "Please try again in a moment.",
    retry: errors.retry ?? "Try again",
  };
  return data(payload, { status: 503, headers: { "Retry-After": "5" } });
}
