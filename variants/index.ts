import { variantSchema, VARIANT_NAMES, type DeploymentVariant, type VariantName } from "../protocol/variant";
import de from "./de.json";
import defaultVariant from "./default.json";
import hk from "./hk.json";
import tr from "./tr.json";

const FILES: Record<VariantName, unknown> = { default: defaultVariant, de, hk, tr };

/** Loads and validates the deployment variant named by `DEPLOYMENT_VARIANT` (default `default`). */
export function loadVariant(name: string | undefined): DeploymentVariant {
  const key = (name ?? "default") as VariantName;
  if (!(VARIANT_NAMES as readonly string[]).includes(key)) {
    throw new Error(`DEPLOYMENT_VARIANT must be one of ${VARIANT_NAMES.join(", ")} (got "${name}")`);
  }
  return variantSchema.parse(FILES[key]);
}
