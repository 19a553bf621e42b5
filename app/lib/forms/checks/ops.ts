import { formCheck, OPTIONAL as O, REQUIRED as R } from "../form-check";

/** The checks of the operator console's forms (`../ops.ts`), without zod (decision 037). */
export const opsLoginCheck = formCheck({
  constraint: { email: R, password: R, totp: O },
  schema: () => import("../ops").then((m) => m.opsLoginSchema),
});

export const opsSetupCheck = formCheck({
  constraint: { ticket: R, totp: R },
  schema: () => import("../ops").then((m) => m.opsSetupSchema),
});

export const opsAddOperatorCheck = formCheck({
  constraint: { email: R, name: R, role: { required: true, pattern: "admin|support|compliance|finance|markets|arbiter" }, password: R },
  schema: () => import("../ops").then((m) => m.opsAddOperatorSchema),
});

export const opsDecisionCheck = formCheck({
  constraint: { id: R, decision: { required: true, pattern: "approve|reject" }, reason: O },
  schema: () => import("../ops").then((m) => m.opsDecisionSchema),
});

export const opsMemberChangeCheck = formCheck({
  constraint: { intent: { required: true, pattern: "freeze|unfreeze|reset_2fa" }, reason: R },
  schema: () => import("../ops").then((m) => m.opsMemberChangeSchema),
});

export const opsCreditCheck = formCheck({
  constraint: { uid: R, coin: R, account: { required: true, pattern: "funding|spot" }, amount: R, reference: R },
  schema: () => import("../ops").then((m) => m.opsCreditSchema),
});

/** The configuration tables' forms (decision 044), one per table. */
export const opsNavItemCheck = formCheck({
  constraint: { nav_code: R, nav_path: R, pid: R, nav_sort: R, nav_show: O, nav_icon: O },
  schema: () => import("../ops-config").then((m) => m.navItemFormSchema),
});

export const opsFooterLinkCheck = formCheck({
  constraint: { group_code: R, link_code: R, link_path: R, link_sort: R, link_show: O },
  schema: () => import("../ops-config").then((m) => m.footerLinkFormSchema),
});

export const opsLanguageCheck = formCheck({
  constraint: { value: { required: true, pattern: "zh_cn|zh_tw|en|kr|jp|es|de|fr|tr" }, label: R, text: R, sort: R },
  schema: () => import("../ops-config").then((m) => m.languageFormSchema),
});

export const opsCurrencyCheck = formCheck({
  constraint: { exchange_value: R, quote_currency: R, exchange_code: R, rate: R, sort: R },
  schema: () => import("../ops-config").then((m) => m.currencyFormSchema),
});
