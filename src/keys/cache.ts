import type { Sql } from '../db/index.js';
import { describeError } from '../errors.js';
import { log } from '../log.js';
import { type ApiKey, findApiKeyByHash, hashApiKey } from './keys.js';

/** The channel api_keys' trigger notifies on every update or delete (sql/0036). */
export const API_KEYS_CHANNEL = 'tollgate_api_keys';

/**
 * Active API keys this process has seen, by the digest of the key, so that a request does not
 * cost a database round trip for its key. A change to api_keys anywhere (a revocation from the
 * CLI, the dashboard or another process; a new webhook secret) empties the cache through
 * LISTEN/NOTIFY as it commits; so does every (re)connection of the listening connection, since
 * notifications may have been missed while it was down. Each entry is also trusted for
 * `ttlMs` at most, whatever happens to the notifications. Unknown keys are not remembered
 * (a flood of random keys cannot fill the memory), and concurrent lookups of one key share
 * one query.
 */
export class ApiKeyCache {
  private readonly entries = new Map<string, { key: ApiKey; until: number }>();
  private readonly inFlight = new Map<
    string,
    Promise<(ApiKey & { accepted_until?: Date }) | undefined>
  >();
  private listening: Promise<void> | undefined;
  private unlisten: (() => Promise<void>) | undefined;
  private stopped = false;
  /** Bumped by every clear: a lookup that started before it must not fill the cache after it. */
  private generation = 0;

  constructor(
    private readonly sql: Sql,
    private readonly opts: { ttlMs: number; maxEntries: number } = {
      ttlMs: 30_000,
      maxEntries: 10_000,
    },
  ) {}

  async find(key: string): Promise<ApiKey | undefined> {
    this.listening ??= this.listen();
    const digest = hashApiKey(key);
    const hit = this.entries.get(digest);
    if (hit && hit.until > performance.now()) return hit.key;
    let lookup = this.inFlight.get(digest);
    if (!lookup) {
      const generation = this.generation;
      lookup = findApiKeyByHash(this.sql, digest).finally(() => this.inFlight.delete(digest));
      this.inFlight.set(digest, lookup);
      void lookup
        .then((found) => {
          if (!found || generation !== this.generation || this.stopped) return;
          if (this.entries.size >= this.opts.maxEntries) this.entries.clear();
          // A replaced secret in its overlap: remembered no longer than it is accepted.
          const { accepted_until, ...key } = found;
          const ttl = accepted_until
            ? Math.min(this.opts.ttlMs, accepted_until.getTime() - Date.now())
            : this.opts.ttlMs;
          if (ttl > 0) this.entries.set(digest, { key, until: performance.now() + ttl });
        })
        .catch(() => {});
    }
    return lookup;
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
    this.inFlight.clear();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.clear();
    await this.listening;
    await this.unlisten?.().catch(() => {});
  }

  private async listen(): Promise<void> {
    try {
      const listener = await this.sql.listen(
        API_KEYS_CHANNEL,
        () => this.clear(),
        // Every (re)connection: what changed while the connection was down was not heard.
        () => this.clear(),
      );
      this.unlisten = listener.unlisten;
      if (this.stopped) await listener.unlisten();
    } catch (err) {
      // Without notifications nothing may be remembered: every request asks the database.
      log.warn(
        { error: describeError(err) },
        'could not listen for API key changes; keys are looked up on every request',
      );
      this.stopped = true;
      this.clear();
    }
  }
}
