/** A page asked for: its number (from 1) and size. */
export interface Paging {
  pageNo: number;
  pageSize: number;
}

/** A page of rows, shaped like the API's `pageOf` answers (protocol/endpoints/order-history.ts). */
export interface Page<T> {
  records: T[];
  total: number;
  size: number;
  current: number;
  pages: number;
}

/** The page of `records` out of `total` rows. */
export function pageOf<T>(records: T[], total: number, paging: Paging): Page<T> {
  return { records, total, size: paging.pageSize, current: paging.pageNo, pages: Math.ceil(total / paging.pageSize) };
}
