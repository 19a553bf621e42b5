import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { OrdersPage } from "~/components/orders-page";
import { PageErrorBoundary } from "~/components/error-page";
import { pageTitle } from "~/lib/use-shell";
import { ordersPageAction, ordersPageLoader } from "~/services/spot/orders-page.server";

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "entrust.margin_all_title") }];

/** Orders placed from the cross margin account (issue 31), their trades, and the account's records. */
export function loader(args: LoaderFunctionArgs) {
  return ordersPageLoader(args, "all");
}

/** Cancels one open order, then shows the same page again with a toast (with or without JavaScript). */
export function action(args: ActionFunctionArgs) {
  return ordersPageAction(args, "all");
}

export default function Page() {
  return <OrdersPage data={useLoaderData<typeof loader>()} />;
}
export const ErrorBoundary = PageErrorBoundary;
