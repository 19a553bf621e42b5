import { redirect } from "@remix-run/node";

/** /user opens the login page (spec §2: login is the default). */
export const loader = () => redirect("/user/login");
