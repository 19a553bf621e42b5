import * as z from "zod";
import { DECIMAL_PATTERN, UNSIGNED_DECIMAL_PATTERN } from "./decimal";

export * from "./decimal";

/** A canonical decimal string: optional minus, no leading zeros, no exponent, no plus sign. */
export const decimalString = z.string().max(64).regex(DECIMAL_PATTERN, "must be a decimal number such as 12.5");

/** A non-negative decimal string. */
export const unsignedDecimalString = z.string().max(64).regex(UNSIGNED_DECIMAL_PATTERN, "must be a non-negative decimal number such as 12.5");
