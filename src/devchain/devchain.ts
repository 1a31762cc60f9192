import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { log } from '../log.js';
import { projectPath } from '../paths.js';

export const DEV_CHAIN_PORT = 8545;

export interface DevChain {
  url: string;
  stop(): Promise<void>;
}

/** The dev chain's JSON-RPC URL: on loopback, at its port (TOLLGATE_DEV_CHAIN_PORT). */
export function devChainUrl(port: number): string {
  return `http://127.0.0.1:${port}`;
}

/** Whether a JSON-RPC node answers at `url` (the dev chain, started by this or another process). */
export async function rpcAnswers(url: string): Promise<boolean> {
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
    });
    return res.ok;
  } catch {
    return false;
  }
}

/** The dev chain's node implementations: Hardhat 2 (the default) and Foundry's anvil. */
export type DevChainNode = 'hardhat' | 'anvil';

/** TOLLGATE_DEV_CHAIN_NODE, else hardhat. */
export function devChainNode(env: NodeJS.ProcessEnv = process.env): DevChainNode {
  const v = env.TOLLGATE_DEV_CHAIN_NODE;
  if (v === undefined || v === '' || v === 'hardhat') return 'hardhat';
  if (v === 'anvil') return 'anvil';
  throw new Error(`TOLLGATE_DEV_CHAIN_NODE: "hardhat" or "anvil", got "${v}"`);
}

/** The node's command line: chain id 31337, the usual test accounts, automine plus a block a second. */
function devChainCommand(node: DevChainNode, port: number): { bin: string; args: string[] } {
  if (node === 'anvil') {
    const bin = projectPath('node_modules', '.bin', 'anvil');
    if (!existsSync(bin))
      throw new Error('the anvil dev chain needs the @foundry-rs/anvil devDependency (npm ci)');
    return {
      bin,
      args: [
        '--host',
        '127.0.0.1',
        '--port',
        String(port),
        '--chain-id',
        '31337',
        '--block-time',
        '1',
        '--mixed-mining',
        '--silent',
      ],
    };
  }
  const bin = projectPath('node_modules', 'hardhat', 'internal', 'cli', 'bootstrap.js');
  if (!existsSync(bin))
    throw new Error(
      'the dev chain needs the hardhat devDependency (run npm ci), or set TOLLGATE_RPC_ETH',
    );
  return {
    bin: process.execPath,
    args: [
      bin,
      '--config',
      projectPath('config', 'hardhat.config.cjs'),
      'node',
      '--hostname',
      '127.0.0.1',
      '--port',
      String(port),
    ],
  };
}

/**
 * Starts the local node (a devDependency: Hardhat 2, or anvil with TOLLGATE_DEV_CHAIN_NODE=anvil)
 * on 127.0.0.1 for the quick start and the tests: chain id 31337, automine plus one block a
 * second. If a node already answers on the port it is used as it is.
 */
export async function startDevChain(
  port = DEV_CHAIN_PORT,
  node: DevChainNode = devChainNode(),
): Promise<DevChain> {
  const url = devChainUrl(port);
  if (await rpcAnswers(url)) {
    log.info({ url }, 'dev chain already running; using it');
    return { url, stop: async () => {} };
  }
  const { bin, args } = devChainCommand(node, port);
  const child: ChildProcess = spawn(bin, args, {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, HARDHAT_DISABLE_TELEMETRY_PROMPT: 'true', DO_NOT_TRACK: '1' },
  });
  let stderr = '';
  child.stderr?.on('data', (d) => {
    stderr = (stderr + String(d)).slice(-2000);
  });
  const deadline = Date.now() + 60_000;
  while (!(await rpcAnswers(url))) {
    if (child.exitCode !== null)
      throw new Error(`dev chain exited with code ${child.exitCode}: ${stderr.trim().slice(-500)}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error('dev chain did not answer within 60 s');
    }
    await sleep(200);
  }
  log.info({ url, pid: child.pid, node }, `dev chain started (${node}, chain id 31337)`);
  return {
    url,
    stop: async () => {
      // Gone already (exited, or ended by a signal: then exitCode stays null).
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGTERM');
      await Promise.race([exited, sleep(5000)]);
      if (child.exitCode === null) child.kill('SIGKILL');
      log.info('dev chain stopped');
    },
  };
}
