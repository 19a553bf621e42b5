import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { aliasTarget } from "~/lib/route-aliases";

/** An alias (app/lib/route-aliases.ts says where it leads). */
export function loader({ request }: LoaderFunctionArgs) {
  return redirect(aliasTarget("/account/center/entrust/margin-fixed", request.url));
}
