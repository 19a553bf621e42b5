import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { PageErrorBoundary } from "~/components/error-page";
import { SubscriptionRecordsPage } from "~/components/subscriptions/records-page";
import { pageTitle } from "~/lib/use-shell";
import { withMember } from "~/services/engine/route.server";
import { loadSubscriptionRecords, returnApplyAction } from "~/services/subscriptions/subscriptions.server";

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "subscriptions.new_coin.records_title") }];

/** Spec §2 `/newCurrency/list` (decision 053): the member's new-coin purchase records and, where the site offers it, the return application. */
export function loader(args: LoaderFunctionArgs) {
  return withMember(args, ({ engine }) => loadSubscriptionRecords(engine, 1));
}

/** The return application's button. */
export function action(args: ActionFunctionArgs) {
  return withMember(args, ({ engine }) => returnApplyAction(engine, 1));
}

export default function NewCoinRecordsPage() {
  return <SubscriptionRecordsPage data={useLoaderData<typeof loader>()} />;
}

export const ErrorBoundary = PageErrorBoundary;
