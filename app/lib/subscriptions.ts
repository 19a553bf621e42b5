import type { SubscriptionStatusView } from "#protocol/endpoints/subscription";

/**
 * The statuses of a purchase record (the protocol's `SUBSCRIPTION_STATUSES`, decision 053), for the
 * records page's filter: kept here so the page bundles no protocol schemas. The type checks each
 * is a status; `subscriptions.test.ts` that none is missing.
 */
export const SUBSCRIPTION_STATUSES = [
  "subscribing",
  "closed",
  "won",
  "allotted",
  "returning",
  "returned",
  "already_returned",
] as const satisfies ReadonlyArray<SubscriptionStatusView>;
