import { redirect } from "@remix-run/node";

/** Spec §2: /home goes to /home/index. */
export const loader = () => redirect("/home/index");
