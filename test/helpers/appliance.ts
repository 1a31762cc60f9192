import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { startAppliance, type Appliance, type Roles } from '../../src/appliance.js';

export const ALL_ROLES: Roles = { api: true, worker: true, indexer: 'all', devChain: false };
/** The API alone: no indexer or worker (a test that writes the tables itself, or needs neither). */
export const API_ONLY: Roles = { api: true, worker: false, indexer: false, devChain: false };

/** TOLLGATE_START_BLOCK_<NETWORK>=head for each network with an RPC URL and no start block. */
function startAtHead(env: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of ['TOLLGATE_RPC_ETH', ...Object.keys(env)]) {
    const m = /^TOLLGATE_RPC_([A-Z0-9]+)$/.exec(name);
    if (m && env[`TOLLGATE_START_BLOCK_${m[1]}`] === undefined)
      out[`TOLLGATE_START_BLOCK_${m[1]}`] = 'head';
  }
  return out;
}

/**
 * The real appliance in this process against the test file's database and the shared Hardhat
 * node, on a free port, with loopback webhooks allowed (the receivers run here).
 */
export async function startTestAppliance(
  databaseUrl: string,
  env: Record<string, string> = {},
  roles: Roles = ALL_ROLES,
  { waitForCursors = true } = {},
): Promise<Appliance & { baseUrl: string }> {
  const config = loadConfig({
    DATABASE_URL: databaseUrl,
    TOLLGATE_DATA_DIR: mkdtempSync(join(tmpdir(), 'tollgate-data-')),
    TOLLGATE_HOST: '127.0.0.1',
    TOLLGATE_PORT: '0',
    TOLLGATE_RPC_ETH: inject('rpcUrl'),
    TOLLGATE_CONFIRMATIONS_ETH: '3',
    TOLLGATE_POLL_INTERVAL_MS_ETH: '100',
    TOLLGATE_WEBHOOK_ALLOW_CIDRS: '127.0.0.0/8',
    // The tests' TRP peers and NFT metadata servers are on loopback too (three separate lists).
    TOLLGATE_TRP_ALLOW_CIDRS: '127.0.0.0/8',
    TOLLGATE_NFT_METADATA_ALLOW_CIDRS: '127.0.0.0/8',
    // Test receivers and peers are plain http on loopback; test/trp-interop.test.ts turns it off.
    TOLLGATE_TRAVEL_RULE_ALLOW_HTTP_LOOPBACK: 'true',
    // Most test peers send on the API port with the token alone; the mutual-TLS tests
    // (test/trp-mtls.test.ts, test/travelrule-two-instances.test.ts) turn it on.
    TOLLGATE_TRP_REQUIRE_CLIENT_CERT: 'false',
    // Most tests log operators in with a password alone; the second-factor tests
    // (test/operator-login.test.ts, test/dashboard-mfa-browser.test.ts) set the roles.
    TOLLGATE_MFA_REQUIRED_ROLES: '',
    TOLLGATE_LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    ...env,
    // A test sends its transactions after the start: the head is history enough, unless the
    // test chooses a start block.
    ...startAtHead(env),
  });
  const appliance = await startAppliance(config, roles);
  // An indexer starts at the head it first sees: wait until each has its cursor, so that a
  // transaction a test sends next is above the start block.
  if (roles.indexer && waitForCursors) {
    const wanted =
      roles.indexer === 'all' ? appliance.networks.map((n) => n.symbol) : roles.indexer;
    const deadline = Date.now() + 30_000;
    for (;;) {
      const rows = await appliance.db.sql<
        { network: string }[]
      >`select network from indexer_cursors`;
      if (wanted.every((n) => rows.some((r) => r.network === n))) break;
      if (Date.now() > deadline)
        throw new Error(`indexers did not start within 30 s: ${wanted.join(', ')}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return Object.assign(appliance, { baseUrl: `https://127.0.0.1:${appliance.apiPort}` });
}
