/**
 * Pages of wallet histories an API process answered lately, kept with the version of the history
 * they were read at (sql/0044: the id of the last transaction that added or removed one of the
 * address's rows) and the database server that gave it.
 *
 * A page's statement reads the address's current version in any case (with its total and the
 * history's reach, which change with every block and are never kept); when it is the kept page's,
 * on the same server, Postgres skips building the page and the kept text is answered. So a page
 * is never older than the snapshot its request read: a new transaction or a reorg of the address
 * moves the version in the transaction that changes its rows.
 *
 * The server: transaction ids are never reused by one server, but a replica promoted after
 * losing the primary's last commits (or a restore from a backup) gives the lost ids again, to
 * other transactions. Its postmaster started at another time than the server the page came from,
 * so a page kept before a failover is never taken for one after it.
 *
 * Bounded by the bytes of the pages kept (config wallet_page_cache_mb), least recently used
 * dropped first; 0 keeps nothing.
 */
export interface KeptPage {
  /** pg_postmaster_start_time() of the server that answered, as text. */
  server: string;
  /** The address's history version the page was read at. */
  version: string;
  /** The page's items as JSON text. */
  json: string;
}

/** What a kept page counts for: its text as UTF-16, as V8 holds it at most. */
const bytesOf = (kept: KeptPage): number => kept.json.length * 2;

export class PageCache {
  private readonly pages = new Map<string, KeptPage>();
  private bytes = 0;
  /** Pages answered from here. */
  hits = 0;

  constructor(readonly maxBytes: number) {}

  private static key(address: string, page: number, limit: number): string {
    return `${address} ${page} ${limit}`;
  }

  /** The kept page, if any (marked most recently used). */
  get(address: string, page: number, limit: number): KeptPage | undefined {
    const key = PageCache.key(address, page, limit);
    const kept = this.pages.get(key);
    if (!kept) return undefined;
    this.pages.delete(key);
    this.pages.set(key, kept);
    return kept;
  }

  /** Keeps a page just read (replacing an older one of the same address, page and limit). */
  put(address: string, page: number, limit: number, kept: KeptPage): void {
    const size = bytesOf(kept);
    if (size > this.maxBytes) return;
    const key = PageCache.key(address, page, limit);
    this.drop(key);
    this.pages.set(key, kept);
    this.bytes += size;
    while (this.bytes > this.maxBytes) this.drop(this.pages.keys().next().value!);
  }

  /** Pages kept and their size (see bytesOf). */
  get size(): { pages: number; bytes: number } {
    return { pages: this.pages.size, bytes: this.bytes };
  }

  private drop(key: string): void {
    const kept = this.pages.get(key);
    if (!kept) return;
    this.pages.delete(key);
    this.bytes -= bytesOf(kept);
  }
}
