import { redirect } from "@remix-run/node";

/** Spec §2: /account goes to /account/center. */
export const loader = () => redirect("/account/center");
