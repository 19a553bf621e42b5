import { redirect } from "@remix-run/node";

/** Spec §2: /account/entrust goes to spot. */
export const loader = () => redirect("/account/entrust/spot");
