/** One page of a list, with one row more fetched than asked for to know whether a next page exists. */
export interface Page<T> {
  results: T[];
  start: number;
  limit: number;
  hasMore: boolean;
}

export function pageOf<T>(rows: T[], start: number, limit: number): Page<T> {
  return { results: rows.slice(0, limit), start, limit, hasMore: rows.length > limit };
}
