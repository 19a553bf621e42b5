import { redirect, type LoaderFunctionArgs } from "@remix-run/node";

/** Spec §2 also lists /account/center/entrust/spot: the page lives at /account/entrust/spot (decision 010); the query is kept. */
export function loader({ request }: LoaderFunctionArgs) {
  return redirect(`/account/entrust/spot${new URL(request.url).search}`);
}
