import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { PageErrorBoundary } from "~/components/error-page";
import { SubscriptionRecordsPage } from "~/components/subscriptions/records-page";
import { pageTitle } from "~/lib/use-shell";
import { withMember } from "~/services/engine/route.server";
import { loadSubscriptionRecords, returnApplyAction } from "~/services/subscriptions/subscriptions.server";

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "subscriptions.etf.records_title") }];

/** Spec §2 `/etf/list` (decision 053): the member's ETF purchase records and, where the site offers it, the return application. */
export function loader(args: LoaderFunctionArgs) {
  return withMember(args, ({ engine }) => loadSubscriptionRecords(engine, 2));
}

/** The return application's button. */
export function action(args: ActionFunctionArgs) {
  return withMember(args, ({ engine }) => returnApplyAction(engine, 2));
}

export default function EtfRecordsPage() {
  return <SubscriptionRecordsPage data={useLoaderData<typeof loader>()} />;
}

export const ErrorBoundary = PageErrorBoundary;
