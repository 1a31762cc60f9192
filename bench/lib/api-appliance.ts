import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startAppliance, type Appliance } from '../../src/appliance.js';
import { loadConfig, type Config } from '../../src/config/index.js';
import { startEmbeddedPostgres } from '../../src/db/embedded.js';
import { setLogLevel } from '../../src/log.js';
import { freePort } from '../../support/ports.js';

/**
 * The API role in this process on an embedded Postgres of the bench's own, with the rate limit
 * off (and `env` on top of its configuration). eth counts as indexed (screening and new_wallet run as in production); no indexer runs,
 * so the node is never asked. `stop()` removes everything.
 */
export async function startBenchApi(
  name: string,
  env: Record<string, string> = {},
): Promise<{ app: Appliance; config: Config; stop(): Promise<void> }> {
  setLogLevel('warn');
  const dir = mkdtempSync(join(tmpdir(), `tollgate-bench-${name}-`));
  chmodSync(dir, 0o711);
  const pg = await startEmbeddedPostgres(join(dir, 'pg'), await freePort());
  const config = loadConfig({
    DATABASE_URL: pg.url,
    TOLLGATE_DATA_DIR: dir,
    TOLLGATE_HOST: '127.0.0.1',
    TOLLGATE_PORT: '0',
    TOLLGATE_RPC_ETH: 'http://127.0.0.1:1',
    TOLLGATE_LOG_LEVEL: 'warn',
    TOLLGATE_RATE_LIMIT_PER_MINUTE: '0',
    // The dashboard bench logs its reviewer in with a password (what a page costs, not the login).
    TOLLGATE_MFA_REQUIRED_ROLES: '',
    ...env,
  });
  const app = await startAppliance(config, {
    api: true,
    worker: false,
    indexer: false,
    devChain: false,
  });
  const stop = async () => {
    await app.stop();
    await pg.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  // A bench that fails (its top-level await throws: say, the disk full while the 10M graph is
  // built) stops its Postgres and removes its files too, rather than leaving them running.
  process.once('uncaughtException', (err) => {
    console.error(err);
    stop()
      .catch(() => {})
      .finally(() => process.exit(1));
  });
  return { app, config, stop };
}
