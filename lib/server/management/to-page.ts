import { PAGE_SIZE } from "@/lib/validations/management";

export interface TPage<T> {
  items: T[];
  total: number;
  page: number;
  pageCount: number;
  pageSize: number;
}

/** skip/take for a 1-based page, and the page a list result becomes (a page past the end clamps). */
export function toPage<T>(options: { items: T[]; total: number; page: number; pageSize?: number }): TPage<T> {
  const pageSize = options.pageSize ?? PAGE_SIZE;
  return { items: options.items, total: options.total, page: options.page, pageSize, pageCount: Math.max(1, Math.ceil(options.total / pageSize)) };
}
