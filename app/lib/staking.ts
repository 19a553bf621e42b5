import type { StakeRecordView } from "#protocol/endpoints/stake";

/** The kinds of a staking record (the protocol's `STAKE_RECORD_KINDS`, decision 052), for the records page's filter: kept here so the page bundles no protocol schemas. */
export const STAKE_RECORD_KINDS = ["invest", "redeemed", "matured", "early"] as const satisfies ReadonlyArray<StakeRecordView["kind"]>;
export type StakeRecordKind = (typeof STAKE_RECORD_KINDS)[number];
