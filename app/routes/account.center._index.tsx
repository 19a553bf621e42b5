import { redirect } from "@remix-run/node";

/** Spec §2: /account/center goes to /account/center/info. */
export const loader = () => redirect("/account/center/info");
