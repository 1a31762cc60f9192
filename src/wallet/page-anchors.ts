import type { Sql } from '../db/index.js';
import { describeError } from '../errors.js';
import { log } from '../log.js';

/**
 * Where deep pages of a wallet's history begin, kept per API process so that page 500 is not an
 * OFFSET walk over the 24,950 index entries before it.
 *
 * For one address at one version of its history (sql/0044: the id of the last transaction that
 * changed its rows), a mark says: `before` rows have a block time later than `t`. The history is
 * ordered by block time first, so the row at offset `o` is the row at offset `o - before` among
 * those with a block time ≤ `t`, which the (address, timestamp desc, …) index reaches directly.
 * Marks are taken every SPACING rows by one scan of the address's index entries, after a deep
 * page was asked for; the page's own statement checks the version, so a mark is used only on the
 * very rows it was taken from and a changed history falls back to the OFFSET walk until marks
 * are taken again. A run of rows with one block time longer than SPACING leaves the walk longer
 * than SPACING inside it, never wrong.
 */

/** Rows between two marks: the most a deep page walks once its address has marks. */
export const SPACING = 1_000;
/** Addresses whose marks a process keeps, least recently used dropped first. */
const MAX_ADDRESSES = 1_000;
/**
 * Marks of an address are taken again no sooner than this many times as long as the last take
 * took after it: a busy address whose history changes every block (and whose marks are stale at
 * once) costs a process at most a tenth of one connection's time, not a scan per block.
 */
const RETAKE_AFTER_TAKES = 10;

export interface Mark {
  /** Block time (Unix seconds, as Postgres answers a bigint). */
  t: string;
  /** How many of the address's rows have a block time later than t. */
  before: number;
}

interface Marks {
  version: string;
  /** The server that answered (pg_postmaster_start_time(): a version is one server's; ./page-cache.ts). */
  server: string;
  /** Ascending by before. */
  marks: Mark[];
  /** When they were taken (ms since the epoch) and how long that took (ms). */
  takenAt: number;
  tookMs: number;
}

export class PageAnchors {
  private readonly byAddress = new Map<string, Marks>();
  /** The address whose marks are being taken (one at a time per process), if any. */
  private taking: string | null = null;
  /** Pages answered from a mark, for tests and the curious. */
  hits = 0;

  /** takeAfterDeepPages false: marks are taken only by take() (tests that hold marks still). */
  constructor(
    private readonly sql: Sql,
    private readonly options: { takeAfterDeepPages?: boolean } = {},
  ) {}

  /** The version the marks of this address were taken at, and the mark for this offset. */
  lookup(
    address: string,
    offset: number,
  ): { version: string; server: string; mark: Mark } | undefined {
    const kept = this.byAddress.get(address);
    if (!kept) return undefined;
    this.byAddress.delete(address);
    this.byAddress.set(address, kept); // most recently used last
    let mark: Mark | undefined;
    for (const m of kept.marks) {
      if (m.before > offset) break;
      mark = m;
    }
    return mark ? { version: kept.version, server: kept.server, mark } : undefined;
  }

  /**
   * After a page at `offset` was answered at `version` without a mark: takes the address's marks
   * in the background when the page was deep enough to need them and none are being taken.
   */
  afterPage(address: string, version: string | null, server: string, offset: number): void {
    if (this.options.takeAfterDeepPages === false) return;
    if (version === null || offset < SPACING || this.taking !== null) return;
    const kept = this.byAddress.get(address);
    if (kept?.version === version && kept.server === server) return;
    if (kept && Date.now() - kept.takenAt < RETAKE_AFTER_TAKES * kept.tookMs) return;
    this.taking = address;
    this.take(address)
      .catch((err: unknown) =>
        log.warn({ error: describeError(err) }, 'wallet history: page marks not taken'),
      )
      .finally(() => {
        this.taking = null;
      });
  }

  /** Takes the marks of an address in one statement (one snapshot: the version and its rows). */
  async take(address: string): Promise<void> {
    const started = Date.now();
    const [row] = await this.sql<
      { version: string | null; server: string; t: string[]; before: number[] }[]
    >`
      with ranked as (
        select timestamp as t, rank() over w - 1 as before, row_number() over w - 1 as rn
        from evm_tx_addresses where address = ${address}
        window w as (order by timestamp desc)
      ), marks as (
        select distinct t, before from ranked where rn % ${SPACING} = 0 and before > 0
      )
      select (select version from address_tx_counts where address = ${address}) as version,
        pg_postmaster_start_time()::text as server,
        array(select t from marks order by before) as t,
        array(select before::int from marks order by before) as before`;
    if (!row || row.version === null) {
      this.byAddress.delete(address);
      return;
    }
    const marks = row.t.map((t, i) => ({ t, before: row.before[i]! }));
    this.byAddress.delete(address);
    this.byAddress.set(address, {
      version: row.version,
      server: row.server,
      marks,
      takenAt: Date.now(),
      tookMs: Date.now() - started,
    });
    while (this.byAddress.size > MAX_ADDRESSES)
      this.byAddress.delete(this.byAddress.keys().next().value!);
  }
}
