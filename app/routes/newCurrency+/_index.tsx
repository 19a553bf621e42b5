import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { PageErrorBoundary } from "~/components/error-page";
import { SubscriptionProjectsPage, type SubscribeReply } from "~/components/subscriptions/projects-page";
import { pageTitle } from "~/lib/use-shell";
import { withEngine, withMember } from "~/services/engine/route.server";
import { loadSubscriptionProjects, subscribeAction } from "~/services/subscriptions/subscriptions.server";

export const meta: MetaFunction = ({ matches }) => [{ title: pageTitle(matches, "subscriptions.new_coin.title") }];

/** Spec §2 `/newCurrency` (decision 053): the new-coin projects for anyone, the selected one's subscribe form for a member. */
export function loader(args: LoaderFunctionArgs) {
  return withEngine(args, ({ engine }) => loadSubscriptionProjects(engine, 1));
}

export function action(args: ActionFunctionArgs) {
  return withMember(args, ({ engine }) => subscribeAction(engine, 1));
}

export default function NewCoinSubscriptionsPage() {
  const data = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as SubscribeReply | undefined;
  return <SubscriptionProjectsPage data={data} reply={reply} />;
}

export const ErrorBoundary = PageErrorBoundary;
