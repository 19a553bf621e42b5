import { redirect } from "@remix-run/node";

/** Spec §2: "/" goes to /home, which goes to /home/index. */
export const loader = () => redirect("/home");
