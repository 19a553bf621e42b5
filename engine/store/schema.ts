import type { ColumnType, Generated } from "kysely";

/** Database tables as Kysely sees them. NUMERIC and INT8 columns arrive as strings (exact). */
export interface Database {
  nav_item: NavItemTable;
  footer_link: FooterLinkTable;
  sys_language: SysLanguageTable;
  lang_entry: LangEntryTable;
  currency: CurrencyTable;
  site_config: SiteConfigTable;
  dict_item: DictItemTable;
  area_code: AreaCodeTable;
  client_version: ClientVersionTable;
  image_address: ImageAddressTable;
  market_symbol: MarketSymbolTable;
  member: MemberTable;
  device_session: DeviceSessionTable;
  login_device_cookie: LoginDeviceCookieTable;
  operator: OperatorTable;
  operator_session: OperatorSessionTable;
  operator_audit: OperatorAuditTable;
  verification_code: VerificationCodeTable;
  outbox_message: OutboxMessageTable;
  login_log: LoginLogTable;
  upload: UploadTable;
  kyc_submission: KycSubmissionTable;
  asset: AssetTable;
  ledger_account: LedgerAccountTable;
  ledger_hold: LedgerHoldTable;
  ledger_transfer: LedgerTransferTable;
  spot_order: SpotOrderTable;
  wallet_withdrawal: WalletWithdrawalTable;
  spot_kline: SpotKlineTable;
  spot_trade: SpotTradeTable;
  idempotency_key: IdempotencyKeyTable;
  member_favourite: MemberFavouriteTable;
  command_journal: CommandJournalTable;
  core_snapshot: CoreSnapshotTable;
  projection_cursor: ProjectionCursorTable;
  coin_network: CoinNetworkTable;
  deposit_address: DepositAddressTable;
  deposit_address_pool: DepositAddressPoolTable;
  deposit_watch: DepositWatchTable;
  deposit_watch_block: DepositWatchBlockTable;
  wallet_deposit: WalletDepositTable;
  wallet_address: WalletAddressTable;
  wallet_address_whitelist: WalletAddressWhitelistTable;
  member_notice: MemberNoticeTable;
  contract_symbol: ContractSymbolTable;
  contract_order: ContractOrderTable;
  contract_stop: ContractStopTable;
  contract_position: ContractPositionTable;
  contract_leverage: ContractLeverageTable;
  contract_trade: ContractTradeTable;
  contract_kline: ContractKlineTable;
  contract_fill: ContractFillTable;
  contract_funding: ContractFundingTable;
  contract_liquidation: ContractLiquidationTable;
  margin_pool: MarginPoolTable;
  margin_pair: MarginPairTable;
  margin_loan: MarginLoanTable;
  margin_account: MarginAccountTable;
  margin_record: MarginRecordTable;
  pledge_product: PledgeProductTable;
  pledge_loan: PledgeLoanTable;
  pledge_record: PledgeRecordTable;
  stake_product: StakeProductTable;
  stake: StakeTable;
  stake_record: StakeRecordTable;
  stake_state: StakeStateTable;
  sub_project: SubProjectTable;
  subscription: SubscriptionTable;
  return_application: ReturnApplicationTable;
}

/** A staking product (migration 045, decision 052): configuration, changed by `stake.product`. */
export interface StakeProductTable {
  id: string;
  asset: string;
  term_days: number;
  yearly_rate: string;
  cap: string;
  min_amount: string;
  max_per_member: string;
  enabled: boolean;
  sort: Generated<number>;
}

/** A stake: its principal, the rate it was taken at and its interest period while running; kept once ended. */
export interface StakeTable {
  id: string;
  member_id: string;
  product_id: string;
  asset: string;
  term_days: number;
  principal: string;
  rate: string;
  period_start: Timestamp;
  matures_at: Timestamp | null;
  status: "running" | "redeemed" | "matured" | "early";
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** What happened to a stake, one fact per row. */
export interface StakeRecordTable {
  id: Generated<string>;
  seq: string;
  stake_id: string;
  member_id: string;
  product_id: string;
  asset: string;
  kind: "invest" | "redeemed" | "matured" | "early";
  principal: string;
  interest: Generated<string>;
  forfeited: Generated<string>;
  created_at: Timestamp;
}

/** Staking's one row: the start of the last day whose interest was credited. */
export interface StakeStateTable {
  id: number;
  credited_through: Timestamp;
}

/** A new-coin or ETF project (migration 046, decision 053): configuration and its allotment state. */
export interface SubProjectTable {
  id: string;
  type: number;
  asset: string;
  quote_asset: string;
  price: string;
  lot: string;
  supply: string;
  min_per_member: string;
  max_per_member: string;
  start_at: Timestamp;
  end_at: Timestamp;
  return_by_application: boolean;
  requested: Generated<string>;
  allotted_at: Timestamp | null;
  sort: Generated<number>;
}

export type SubscriptionStatusRow = "held" | "won" | "allotted" | "returning" | "returned" | "already_returned";

/** A member's subscription: what it asked and paid, then won and returns, and its status (decision 053). */
export interface SubscriptionTable {
  id: string;
  member_id: string;
  project_id: string;
  type: number;
  asset: string;
  quote_asset: string;
  price: string;
  quantity: string;
  paid: string;
  won_quantity: Generated<string>;
  won_amount: Generated<string>;
  refund: Generated<string>;
  status: SubscriptionStatusRow;
  application_id: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A member's application for the returns kept for them, pending until an operator pays it. */
export interface ReturnApplicationTable {
  id: string;
  member_id: string;
  subscriptions: number;
  status: "pending" | "paid";
  created_at: Timestamp;
  paid_at: Timestamp | null;
}

/** A crypto-loan product (migration 044, decision 051): configuration, changed by `pledge.product`. */
export interface PledgeProductTable {
  id: string;
  loan_asset: string;
  collateral_asset: string;
  term_days: number;
  hourly_rate: string;
  overdue_rate: string;
  initial_ltv: string;
  call_ltv: string;
  liquidation_ltv: string;
  min_amount: string;
  max_amount: string;
  enabled: boolean;
  sort: Generated<number>;
}

/** A crypto loan as the core holds it after the last command touching it; kept once closed. */
export interface PledgeLoanTable {
  id: string;
  member_id: string;
  product_id: string;
  loan_asset: string;
  collateral_asset: string;
  principal: string;
  interest: string;
  collateral: string;
  next_hour: string;
  due_at: Timestamp | null;
  warned: boolean;
  status: "open" | "repaid" | "liquidated";
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** What happened to a crypto loan, one fact per row. */
export interface PledgeRecordTable {
  id: Generated<string>;
  seq: string;
  loan_id: string;
  member_id: string;
  kind: "borrow" | "repay" | "interest" | "add" | "remove" | "liquidation" | "writeoff";
  asset: string;
  amount: string;
  principal: string;
  interest: string;
  created_at: Timestamp;
}

/** A margin lending pool (migration 041, decision 050): configuration, its rate changed by `margin.pool`. */
export interface MarginPoolTable {
  asset: string;
  hourly_rate: string;
  lend_limit: string;
  min_borrow: string;
  sort: Generated<number>;
}

/** A symbol tradable on margin. */
export interface MarginPairTable {
  symbol: string;
  base: string;
  quote: string;
  max_leverage: number;
  sort: Generated<number>;
}

/** An open loan as the core holds it after the last command touching it. */
export interface MarginLoanTable {
  member_id: string;
  scope: string;
  asset: string;
  principal: string;
  interest: string;
  next_hour: string;
  updated_at: Timestamp;
}

/** A margin account's isolated leverage (null: the default) and whether its level was warned about. */
export interface MarginAccountTable {
  member_id: string;
  scope: string;
  leverage: number | null;
  warned: Generated<boolean>;
}

/** One borrow, repayment, interest charge or transfer of a member's margin account. */
export interface MarginRecordTable {
  id: Generated<string>;
  seq: string;
  member_id: string;
  scope: string;
  asset: string;
  kind: "borrow" | "repay" | "interest" | "in" | "out" | "writeoff";
  amount: string;
  principal: string;
  interest: string;
  created_at: Timestamp;
}

/** A perpetual contract's configuration and its price loop's state (migration 037). */
export interface ContractSymbolTable {
  symbol: string;
  base: string;
  quote: string;
  settle_asset: string;
  kind: "linear" | "inverse";
  price_scale: number;
  multiplier: string;
  tick_size: string;
  min_qty: string;
  max_qty: string;
  maker_fee_bps: number;
  taker_fee_bps: number;
  price_band: string;
  default_leverage: number;
  impact_qty: string;
  /** Risk bands: [{ max_value, max_leverage, mmr }] (decimals as text). */
  tiers: ColumnType<ContractTierRow[], string, string>;
  index_sources: string[];
  halted: Generated<boolean>;
  sort: Generated<number>;
  index_price: string | null;
  mark_price: string | null;
  basis: string | null;
  premium_sum: string | null;
  premium_count: number | null;
  next_funding_at: string | null;
  deficit: Generated<string>;
}

export interface ContractTierRow {
  max_value: string;
  max_leverage: number;
  mmr: string;
}

export interface ContractOrderTable {
  order_id: string;
  seq: string;
  member_id: string;
  symbol: string;
  side: string;
  action: string;
  type: string;
  tif: string;
  price: string | null;
  hold_price: string;
  quantity: string;
  filled: Generated<string>;
  leverage: number;
  margin_left: Generated<string>;
  fee_left: Generated<string>;
  status: string;
  reason: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A contract stop order or a position's take profit and stop loss (migration 039, decision 048). */
export interface ContractStopTable {
  stop_id: string;
  seq: string;
  member_id: string;
  symbol: string;
  side: string;
  action: string;
  type: string;
  tif: string;
  price: string | null;
  /** Null: the whole position (a take profit and stop loss). */
  quantity: string | null;
  trigger_by: "mark" | "last";
  profit_price: string | null;
  loss_price: string | null;
  /** waiting, triggered, failed or cancelled. */
  status: string;
  reason: string | null;
  fired_price: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ContractPositionTable {
  symbol: string;
  member_id: string;
  side: string;
  qty: string;
  cost: string;
  margin: string;
  leverage: number;
  updated_at: Timestamp;
}

export interface ContractLeverageTable {
  member_id: string;
  symbol: string;
  leverage: number;
  /** isolated or cross (migration 040, decision 049). */
  margin_mode: Generated<"isolated" | "cross">;
}

export interface ContractTradeTable {
  id: string;
  seq: string;
  symbol: string;
  price: string;
  qty: string;
  taker_side: string;
  created_at: Timestamp;
}

export interface ContractFillTable {
  trade_id: string;
  order_id: string;
  member_id: string;
  symbol: string;
  side: string;
  action: string;
  liquidity: string;
  price: string;
  qty: string;
  fee: string;
  realised: string;
  created_at: Timestamp;
}

export interface ContractFundingTable {
  id: Generated<string>;
  seq: string;
  symbol: string;
  member_id: string;
  rate: string;
  mark: string;
  amount: string;
  created_at: Timestamp;
}

export interface ContractLiquidationTable {
  id: Generated<string>;
  seq: string;
  kind: string;
  symbol: string;
  member_id: string;
  side: string | null;
  qty: string;
  price: string;
  mark: string | null;
  filled: string | null;
  taken_over: string | null;
  to_insurance: string | null;
  created_at: Timestamp;
}

/** The last journal command a projection (the query tables) includes. */
export interface ProjectionCursorTable {
  name: string;
  seq: string;
}

/** An accepted command (decision 017): its sequence number, when, and the command as JSON. */
export interface CommandJournalTable {
  seq: string;
  at: Timestamp;
  command: string;
  /** The idempotency key the command was asked with and its first answer (`JournalKept` as JSON); null without one. */
  kept: string | null;
}
/** The whole core as JSON at `seq`, with the SHA-256 of that text. */
export interface CoreSnapshotTable {
  seq: string;
  checksum: string;
  created_at: Timestamp;
  data: string;
}

export interface NavItemTable {
  id: Generated<number>;
  pid: number;
  nav_sort: number;
  nav_show: number;
  nav_path: string;
  nav_code: string;
  nav_icon: string | null;
}
export interface FooterLinkTable {
  id: Generated<number>;
  group_code: string;
  link_code: string;
  link_path: string;
  link_sort: number;
  link_show: number;
}
export interface SysLanguageTable {
  id: Generated<number>;
  label: string;
  text: string;
  value: string;
  sort: number;
}
export interface LangEntryTable {
  id: Generated<number>;
  label: string;
  text: string;
  value: string;
}
export interface CurrencyTable {
  id: Generated<number>;
  exchange_value: string;
  quote_currency: string;
  exchange_code: string;
  rate: string;
  sort: number;
}
export interface SiteConfigTable {
  id: Generated<number>;
  config_key: string;
  config_value: string;
}
export interface DictItemTable {
  id: Generated<number>;
  dict_code: string;
  item_value: string;
  item_text: string;
  item_key: string;
  sort: number;
}
export interface AreaCodeTable {
  id: Generated<number>;
  country_code: string;
  country_name: string;
  dial_code: string;
  phone_min_length: number;
  phone_max_length: number;
  sort: number;
}
export interface ClientVersionTable {
  id: Generated<number>;
  client_type: string;
  version: string;
  version_code: number;
  force_update: number;
  download_url: string;
  release_note: string;
  released_at: ColumnType<Date, Date | string, Date | string>;
}
export interface ImageAddressTable {
  id: Generated<number>;
  img_code: string;
  img_url: string;
  img_alt_key: string;
  sort: number;
}
export interface MarketSymbolTable {
  id: Generated<number>;
  symbol_name: string;
  coin_symbol: string;
  quote_symbol: string;
  contract_type: number;
  price_scale: number;
  amount_scale: number;
  avatar: string | null;
  sort: number;
  enabled: boolean;
  tick_size: Generated<string>;
  lot_size: Generated<string>;
  min_quantity: Generated<string>;
  maker_fee_bps: Generated<number>;
  taker_fee_bps: Generated<number>;
  /** Halted by an operator: new orders refused, cancels kept (migration 012). */
  halted: Generated<boolean>;
}

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export interface MemberTable {
  id: Generated<string>;
  uid: string;
  email: string | null;
  area_code: string | null;
  phone: string | null;
  password_hash: string;
  trade_password_hash: string | null;
  google_secret: string | null;
  google_pending_secret: string | null;
  anti_code: string | null;
  avatar: string | null;
  /** The language of mails no request asks for: the last login's or the registration's (null: English). */
  lang: string | null;
  is_merchant: Generated<number>;
  supported: Generated<number>;
  /** When the member asked for priority support (null: never); migration 026. */
  support_requested_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** When an operator froze the member (null: not frozen) and the reason they stated; migration 035. */
  frozen_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  frozen_reason: ColumnType<string | null, string | null | undefined, string | null>;
  invite_code: string;
  invited_by: string | null;
  chat_key: string;
  created_at: Timestamp;
  password_changed_at: Timestamp;
}
export interface DeviceSessionTable {
  id: Generated<string>;
  /** The random id the member's devices list and its calls name the session by (migration 032); `id` stays internal. */
  public_id: Generated<string>;
  member_id: string;
  device_id: string;
  name: string;
  user_agent: string;
  ip: string;
  access_token_hash: string;
  access_expires_at: Timestamp;
  refresh_token_hash: string;
  refresh_expires_at: Timestamp;
  created_at: Timestamp;
  last_seen_at: Timestamp;
  revoked_at: Date | null;
}
/** A device cookie: a browser a member logged in from, by its token's digest (migration 031, decision 040). */
export interface OperatorTable {
  id: Generated<string>;
  email: string;
  name: string;
  role: string;
  password_hash: string;
  totp_secret: string | null;
  disabled_at: Timestamp | null;
  created_at: Timestamp;
  last_login_at: Timestamp | null;
}
export interface OperatorSessionTable {
  id: Generated<string>;
  operator_id: string;
  token_hash: string;
  created_at: Timestamp;
  last_seen_at: Timestamp;
  expires_at: Timestamp;
  revoked_at: Timestamp | null;
  ip: string;
  user_agent: string;
}
/** Append-only (the database refuses UPDATE, DELETE and TRUNCATE). `before`/`after` as JSON text on insert. */
export interface OperatorAuditTable {
  id: Generated<string>;
  at: Timestamp;
  operator_id: string | null;
  operator_name: string;
  role: string;
  via: string;
  action: string;
  target: string;
  before: unknown;
  after: unknown;
  address: string;
}
export interface LoginDeviceCookieTable {
  id: Generated<string>;
  member_id: string;
  token_hash: string;
  created_at: Timestamp;
  expires_at: Timestamp;
}
export interface VerificationCodeTable {
  id: Generated<string>;
  destination: string;
  purpose: string;
  code_hash: string;
  attempts: Generated<number>;
  created_at: Timestamp;
  expires_at: Timestamp;
  consumed_at: Date | null;
}
export interface OutboxMessageTable {
  id: Generated<string>;
  channel: "email" | "sms";
  destination: string;
  subject: string;
  body: string;
  created_at: Timestamp;
  delivered_at: Date | null;
  delivery_error: string | null;
  attempts: Generated<number>;
  next_attempt_at: Timestamp;
  /** What the message is about, when only one may ever be written (migration 023). */
  dedupe_key: string | null;
}
export interface LoginLogTable {
  id: Generated<string>;
  member_id: string;
  ip: string;
  user_agent: string;
  device_name: string;
  created_at: Timestamp;
}
export interface UploadTable {
  id: Generated<string>;
  member_id: string;
  purpose: string;
  stored_name: string;
  mime: string;
  size: number;
  sha256: string;
  created_at: Timestamp;
}
export interface KycSubmissionTable {
  id: Generated<string>;
  member_id: string;
  front_upload_id: string;
  back_upload_id: string;
  hand_upload_id: string;
  phone: string;
  status: number;
  reason: string | null;
  submitted_at: Timestamp;
  reviewed_at: Date | null;
}

export interface AssetTable {
  code: string;
  scale: number;
  name: string;
}
export interface LedgerAccountTable {
  id: string;
  owner: string;
  kind: string;
  asset: string;
  posted: string;
  held: string;
}
export interface LedgerHoldTable {
  id: string;
  account_id: string;
  asset: string;
  remaining: string;
}
export interface LedgerTransferTable {
  seq: Generated<string>;
  id: string;
  phase: string;
  debit: string;
  credit: string | null;
  asset: string;
  amount: string;
  pending_id: string | null;
  created_at: Timestamp;
}
export interface SpotOrderTable {
  seq: Generated<string>;
  order_id: string;
  member_id: string;
  symbol: string;
  side: string;
  type: string;
  tif: string;
  price: string | null;
  quantity: string | null;
  money: string | null;
  filled: Generated<string>;
  status: string;
  reason: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** Stop orders (008, docs/decisions/009): status `waiting` until a trigger fires. */
  stop_profit_price: ColumnType<string | null, string | null | undefined, string | null>;
  stop_loss_price: ColumnType<string | null, string | null | undefined, string | null>;
  /** triggerMoney: the limit price once fired (null: at market). */
  trigger_price: ColumnType<string | null, string | null | undefined, string | null>;
  triggered_by: ColumnType<string | null, string | null | undefined, string | null>;
  triggered_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  triggered_seq: ColumnType<string | null, string | null | undefined, string | null>;
  /** The member's own id for the order, echoed back (015); null when none was sent. */
  client_order_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** What its hold still reserves, in the asset it pays with (028; 0 once ended; null: before 028, ended). */
  held: ColumnType<string | null, string | null | undefined, string | null>;
  /** A margin account's kind when the order trades from one (migration 042, decision 050); null: the spot account. */
  account: ColumnType<string | null, string | null | undefined, string | null>;
}
/** A withdrawal and where it stands (019, engine/wallet/withdrawal-product.ts). */
export interface WalletWithdrawalTable {
  id: string;
  seq: Generated<string>;
  member_id: string;
  coin: string;
  network: string | null;
  address: string | null;
  memo: string | null;
  amount: string;
  fee: string;
  state: string;
  reason: string | null;
  txid: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}
export interface SpotTradeTable {
  id: Generated<string>;
  symbol: string;
  taker_order_id: string;
  maker_order_id: string;
  buyer: string;
  seller: string;
  price: string;
  quantity: string;
  value: string;
  buyer_fee: string;
  seller_fee: string;
  taker_side: string;
  created_at: Timestamp;
}
export interface IdempotencyKeyTable {
  member_id: string;
  key: string;
  response: string;
  /** What the key was first used for (`requestFingerprint`); null on rows older than migration 011. */
  fingerprint: string | null;
  created_at: Timestamp;
}
export interface SpotKlineTable {
  symbol: string;
  period: string;
  open_time: string;
  open: string;
  high: string;
  low: string;
  close: string;
  volume: string;
  turnover: string;
}
export interface ContractKlineTable extends SpotKlineTable {
  source: "last" | "mark";
}
export interface MemberFavouriteTable {
  member_id: string;
  symbol: string;
  created_at: Timestamp;
}

/** A coin on one network and its deposit and withdrawal rules (migration 017, decision 024). Amounts in the coin. */
export interface CoinNetworkTable {
  coin: string;
  network: string;
  chain: string;
  contract: string | null;
  address_format: string;
  confirmations: number;
  min_deposit: string;
  withdraw_fee: string;
  min_withdraw: string;
  daily_withdraw_limit: string;
  daily_withdraw_limit_kyc: string;
  deposit_enabled: boolean;
  withdraw_enabled: boolean;
  sort: number;
}

/** A deposit address handed out: one per member and network, never deleted (decision 024). */
export interface DepositAddressTable {
  network: string;
  member_id: string;
  address: string;
  /** The XRP destination tag (INT8, so a string); null on chains without tags. */
  tag: string | null;
  derivation_index: number | null;
  key_fingerprint: string | null;
  created_at: ColumnType<Date, Date | string | undefined, never>;
}

/** An address of a chain without public derivation (Solana), from custody; a member's for good once assigned (migration 033, decision 042). */
export interface DepositAddressPoolTable {
  id: Generated<string>;
  network: string;
  address: string;
  /** `import`: custody's file, through the operator; `adapter`: the simulated chains' custody. */
  source: "import" | "adapter";
  added_at: ColumnType<Date, Date | string | undefined, never>;
  member_id: string | null;
  assigned_at: Date | null;
}

/** The deposit watcher's bookmark per chain: the last block it read (migration 021, decision 027). */
export interface DepositWatchTable {
  chain: string;
  height: string;
  hash: string;
  updated_at: ColumnType<Date, Date | string, Date | string>;
}

/** Blocks the deposit watcher read recently, to find the common ancestor after a re-org. */
export interface DepositWatchBlockTable {
  chain: string;
  height: string;
  hash: string;
}

/** A transfer to a member's deposit address and where it stands (decision 027). */
export interface WalletDepositTable {
  /** `chain:<chain>:<txid>:<index>`, also the id of the ledger's credit. */
  id: string;
  seq: Generated<string>;
  chain: string;
  network: string;
  member_id: string;
  coin: string;
  address: string;
  tag: string | null;
  amount: string;
  txid: string;
  vout: number;
  block_height: string | null;
  block_hash: string | null;
  confirmations: number;
  /** Confirmations the network needs; null when the coin is not carried on it. */
  required: number | null;
  state: "confirming" | "credited" | "below_minimum" | "unsupported" | "dropped";
  created_at: ColumnType<Date, Date | string, Date | string>;
  updated_at: ColumnType<Date, Date | string, Date | string>;
  credited_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

/** A member's saved withdrawal address (migration 022, decision 029). */
export interface WalletAddressTable {
  id: Generated<string>;
  member_id: string;
  coin: string;
  network: string;
  /** As the network writes it (decision 024's canonical spelling). */
  address: string;
  /** The destination tag (XRP), or null. */
  memo: string | null;
  label: string;
  created_at: ColumnType<Date, Date | string, never>;
}

/** A member whose whitelist mode is on, and since when (migration 022, decision 029). */
export interface WalletAddressWhitelistTable {
  member_id: string;
  since: ColumnType<Date, Date | string, Date | string>;
}

/** A member's notification (migration 024, decision 031): a type and its values, rendered when read. */
export interface MemberNoticeTable {
  id: Generated<string>;
  member_id: string;
  type: string;
  service_type: string;
  order_code: string | null;
  params: ColumnType<Record<string, string>, string, string>;
  created_at: ColumnType<Date, Date | string, never>;
  read_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  dedupe_key: string | null;
}
