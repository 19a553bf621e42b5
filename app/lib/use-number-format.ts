import { useMemo } from "react";
import { useTranslation } from "~/lib/i18n";
import { numberFormatOf, type NumberFormat } from "./number-format";

/**
 * The number display functions in the member's language (`1.234,5` in Turkish). The language is
 * the i18n instance's, which the root loader chose, so the server and the browser write the same
 * text (no hydration mismatch).
 */
export function useNumberFormat(): NumberFormat {
  const { i18n } = useTranslation();
  return useMemo(() => numberFormatOf(i18n.language), [i18n.language]);
}
