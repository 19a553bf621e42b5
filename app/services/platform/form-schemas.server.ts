/**
 * What the routes' actions parse their forms with: conform's parser and the forms' zod schemas.
 * A route imports them from here, a `.server` module, so that neither is in its browser bundle
 * (decision 037: a route module's imports stay in the browser's copy even when only its action
 * uses them). The browser loads a form's schema through `~/lib/forms/checks` when the member
 * first uses the form.
 */
export { parseWithZod } from "@conform-to/zod/v4";
export { antiCodeSchema, changePasswordSchema, googleSchema, renameDeviceSchema, tradePasswordSchema } from "~/lib/forms/account";
export { loginSchema, registerSchema, resetPasswordSchema, sendCodeSchema } from "~/lib/forms/auth";
export { kycSchema } from "~/lib/forms/kyc";
export { opsCreditSchema, opsDecisionSchema, opsLoginSchema, opsMemberChangeSchema, opsSetupSchema } from "~/lib/forms/ops";
export { currencyFormSchema, footerLinkFormSchema, languageFormSchema, navItemFormSchema } from "~/lib/forms/ops-config";
export { localPath } from "~/lib/preference-schema";
