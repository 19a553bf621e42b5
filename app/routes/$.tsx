import { redirect } from "@remix-run/node";

/** Spec §2/§8: any unmatched route goes to /home/index (for a form post too). */
export const loader = () => redirect("/home/index");
export const action = () => redirect("/home/index");
