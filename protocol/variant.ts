import * as z from "zod";
import { LANGUAGE_CODES } from "./languages";
import { THEMES } from "./site-config";

/**
 * A deployment variant (spec §1: "the product defaults come from configuration"): the defaults
 * one deployment shows a new visitor, and its feature flags. One JSON file per variant lives in
 * `variants/`; `DEPLOYMENT_VARIANT` picks it (default `default`). The engine writes these values
 * into the site configuration at every start, so a variant's staging instance always shows them.
 */
export const variantSchema = z.object({
  name: z.string().regex(/^[a-z][a-z0-9-]{0,30}$/),
  description: z.string().max(300),
  language: z.enum(LANGUAGE_CODES),
  theme: z.enum(THEMES),
  currency: z.string().regex(/^[a-z]{3}$/),
  moneySymbol: z.string().min(1).max(4),
  areaCode: z.string().regex(/^\d{1,4}$/),
  features: z.object({
    /** The repayment / return-application button (spec §1, §6: only in two named variants). */
    returnApply: z.boolean(),
  }),
});
export type DeploymentVariant = z.infer<typeof variantSchema>;

export const VARIANT_NAMES = ["default", "de", "hk", "tr"] as const;
export type VariantName = (typeof VARIANT_NAMES)[number];

/** Site-config rows a variant controls. */
export function variantSiteConfig(variant: DeploymentVariant): Record<string, string> {
  return {
    defaultLanguage: variant.language,
    theme: variant.theme,
    exchangeRateCurrency: variant.currency,
    moneySymbol: variant.moneySymbol,
    areaCode: variant.areaCode,
    returnApplyEnabled: JSON.stringify(variant.features.returnApply),
  };
}
