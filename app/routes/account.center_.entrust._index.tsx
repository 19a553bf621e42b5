import { redirect } from "@remix-run/node";

/** Spec §2 also lists the orders under /account/center/entrust: they live at /account/entrust (decision 010). */
export const loader = () => redirect("/account/entrust/spot");
