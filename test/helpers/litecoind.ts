import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Client from 'bitcoin-core';
import { freePort } from '../../support/ports.js';
import { onPath } from './on-path.js';

/**
 * A real `litecoind -regtest` for one test file: its own data dir and free RPC port on
 * 127.0.0.1, a transaction index (unless asked without), a loaded wallet; stopped by its PID.
 */

/** Path of litecoind: TEST_LITECOIND if set, else on PATH (Debian's package: /usr/bin/litecoind). */
export function findLitecoind(): string | undefined {
  const given = process.env.TEST_LITECOIND;
  if (given) return existsSync(given) ? given : undefined;
  return onPath('litecoind');
}

/**
 * Skip only off CI: on CI (CI=true) a missing litecoind fails the file in startLitecoind.
 * For describe.skipIf.
 */
export const skipWithoutLitecoind = !findLitecoind() && process.env.CI !== 'true';
export const SKIP_MESSAGE =
  'litecoind not installed (apt-get install litecoind); Bitcoin-family tests skipped';

export interface Litecoind {
  /** `http://user:password@127.0.0.1:port`, as TOLLGATE_RPC_LITECOIN takes it. */
  rpcUrl: string;
  rpc<T = any>(method: string, ...params: unknown[]): Promise<T>;
  /** Mines `n` blocks to `address` (a fresh wallet address by default); returns their hashes. */
  mine(n: number, address?: string): Promise<string[]>;
  stop(): Promise<void>;
}

export async function startLitecoind({ txindex = true } = {}): Promise<Litecoind> {
  const bin = findLitecoind();
  if (!bin)
    throw new Error(
      'litecoind not found (PATH, TEST_LITECOIND): the Bitcoin-family tests need it (apt-get install litecoind)',
    );
  const datadir = mkdtempSync(join(tmpdir(), 'tollgate-ltc-'));
  const port = await freePort();
  const [user, password] = ['tollgate', `pw${Math.random().toString(36).slice(2)}`];
  const child: ChildProcess = spawn(
    bin,
    [
      '-regtest',
      `-datadir=${datadir}`,
      '-server',
      `-txindex=${txindex ? 1 : 0}`,
      '-fallbackfee=0.0001',
      `-rpcuser=${user}`,
      `-rpcpassword=${password}`,
      '-rpcbind=127.0.0.1',
      '-rpcallowip=127.0.0.1',
      `-rpcport=${port}`,
      '-listen=0',
      '-listenonion=0',
      '-discover=0',
      '-dnsseed=0',
      '-upnp=0',
      '-printtoconsole=0',
    ],
    { stdio: 'ignore' },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const client = new Client({
    host: `http://127.0.0.1:${port}`,
    username: user,
    password,
    timeout: 60_000,
    logger: { debug() {}, info() {}, warn() {}, error() {} },
  });
  const rpc = <T>(method: string, ...params: unknown[]) =>
    client.command(method, ...params) as Promise<T>;

  const stop = async () => {
    if (child.exitCode === null && child.pid) process.kill(child.pid, 'SIGTERM');
    const killed = setTimeout(
      () => child.pid && child.exitCode === null && process.kill(child.pid, 'SIGKILL'),
      15_000,
    );
    await exited;
    clearTimeout(killed);
    rmSync(datadir, { recursive: true, force: true });
  };

  try {
    const deadline = Date.now() + 30_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`litecoind exited with code ${child.exitCode}`);
      try {
        await rpc('getblockcount');
        break;
      } catch (err) {
        if (Date.now() > deadline) throw err;
        await new Promise((r) => setTimeout(r, 200)); // not listening yet, or -28 while warming up
      }
    }
    await rpc('createwallet', 'tollgate');
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    rpcUrl: `http://${user}:${password}@127.0.0.1:${port}`,
    rpc,
    mine: async (n, address) =>
      rpc<string[]>('generatetoaddress', n, address ?? (await rpc<string>('getnewaddress'))),
    stop,
  };
}

/**
 * A proxy in front of `node` that answers as a node run with -prune that pruned the blocks whose
 * hashes `pruned` holds: Bitcoin Core's RPC_MISC_ERROR "Block not available (pruned data)" for
 * getblock of them (the node's own error answer for an unknown block, relabelled: the same HTTP
 * status and shape). `verbosities` records the second parameter of every getblock. `rpcUrl` has
 * the node's credentials.
 */
export async function prunedProxy(node: Litecoind, pruned: ReadonlySet<string>) {
  type Call = { id: unknown; method: string; params: unknown[] };
  const verbosities: unknown[] = [];
  const direct = new URL(node.rpcUrl);
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', async () => {
      const parsed = JSON.parse(body) as Call | Call[];
      const forgotten = new Set<unknown>();
      for (const c of Array.isArray(parsed) ? parsed : [parsed]) {
        if (c.method !== 'getblock') continue;
        verbosities.push(c.params[1]);
        if (pruned.has(c.params[0] as string)) {
          forgotten.add(c.id);
          c.params[0] = '00'.repeat(32);
        }
      }
      const answer = await fetch(`http://${direct.host}/`, {
        method: 'POST',
        headers: {
          authorization: req.headers.authorization ?? '',
          'content-type': 'application/json',
        },
        body: JSON.stringify(parsed),
      });
      const relabel = (a: { id: unknown; error?: unknown }) =>
        forgotten.has(a.id)
          ? { ...a, error: { code: -1, message: 'Block not available (pruned data)' } }
          : a;
      const out = (await answer.json()) as { id: unknown } | { id: unknown }[];
      res.writeHead(answer.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(Array.isArray(out) ? out.map(relabel) : relabel(out)));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = new URL(node.rpcUrl);
  url.port = String((server.address() as AddressInfo).port);
  return {
    rpcUrl: url.toString(),
    verbosities,
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
