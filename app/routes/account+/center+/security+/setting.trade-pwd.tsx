import { redirect } from "@remix-run/node";

/** Spec §2 lists the transaction password under the security settings too; one page serves both URLs. */
export const loader = () => redirect("/account/center/trade-pwd");
