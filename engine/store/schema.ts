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
}
