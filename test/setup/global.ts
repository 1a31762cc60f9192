import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../src/db/embedded.js';
import { openPool } from '../../src/db/index.js';
import { migrate } from '../../src/db/migrate.js';
import { startDevChain, type DevChain } from '../../src/devchain/devchain.js';
import { setLogLevel } from '../../src/log.js';
import { compileTestContracts, type CompiledContracts } from '../helpers/contracts.js';
import { withDatabase } from '../helpers/urls.js';
import { freePort } from '../../support/ports.js';

declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string;
    templateDb: string;
    rpcUrl: string;
    contracts: CompiledContracts;
  }
}

export const TEMPLATE_DB = 'tollgate_template';

/**
 * Once per run: a Postgres (TEST_DATABASE_URL, or an embedded one in a temp dir), a template
 * database with every migration applied, a Hardhat node on a free port, the test contracts.
 */
export default async function setup(project: TestProject) {
  setLogLevel(process.env.TEST_LOG_LEVEL ?? 'warn');
  // Every temporary directory of the run (data dirs, nodes' dirs, browsers' profiles: whatever
  // asks os.tmpdir(), in the test workers and their children) under one, removed at the end:
  // a run used to leave a thousand data dirs behind.
  const scratch = mkdtempSync(join(tmpdir(), 'tollgate-run-'));
  chmodSync(scratch, 0o711); // as root, Postgres runs as the postgres user and must pass through
  process.env.TMPDIR = scratch;
  const dir = mkdtempSync(join(scratch, 'tollgate-test-'));
  chmodSync(dir, 0o711);
  let embedded: EmbeddedDatabase | undefined;
  let chain: DevChain | undefined;
  // What this setup started is stopped when a later step of it fails: vitest runs no teardown
  // then, and the Postgres and Hardhat processes would outlive the run.
  const stop = async () => {
    await chain?.stop();
    await embedded?.stop();
    rmSync(scratch, { recursive: true, force: true });
  };
  try {
    let adminUrl = process.env.TEST_DATABASE_URL;
    if (!adminUrl) {
      embedded = await startEmbeddedPostgres(join(dir, 'pg'), await freePort());
      adminUrl = embedded.url;
    }
    const admin = openPool(adminUrl, { max: 1 });
    await admin.unsafe(`drop database if exists ${TEMPLATE_DB}`);
    await admin.unsafe(`create database ${TEMPLATE_DB}`);
    const templateUrl = withDatabase(adminUrl, TEMPLATE_DB);
    const tpl = openPool(templateUrl, { max: 1 });
    await migrate(tpl, templateUrl);
    await tpl.end();
    await admin.end();

    chain = await startDevChain(await freePort());
    const contracts = compileTestContracts(
      readFileSync(new URL('../fixtures/TestTokens.sol', import.meta.url), 'utf8'),
    );

    project.provide('pgAdminUrl', adminUrl);
    project.provide('templateDb', TEMPLATE_DB);
    project.provide('rpcUrl', chain.url);
    project.provide('contracts', contracts);
  } catch (err) {
    await stop().catch(() => {});
    throw err;
  }

  return stop;
}
