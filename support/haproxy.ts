import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeDevCa, makeDevCertificate } from '../src/net/tls-certs.js';
import { freePort } from './ports.js';

/**
 * HAProxy with the configuration the README ships (config/haproxy/), for the test that checks it
 * (test/haproxy-config.test.ts) and the overload benchmark's proxied run (bench/overload.ts);
 * stopped by its PID.
 */

const CONFIG_DIR = fileURLToPath(new URL('../config/haproxy/', import.meta.url));

export interface Haproxy {
  /** https://127.0.0.1:<port>, the proxy's TLS listener. */
  baseUrl: string;
  stop(): Promise<void>;
}

/**
 * HAProxy (`bin`) run with config/haproxy/haproxy.cfg in front of the api listening on
 * 127.0.0.1:`apiPort`, its TLS certificate a fresh development one; resolves once it listens.
 */
export async function startHaproxy(bin: string, apiPort: number): Promise<Haproxy> {
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-haproxy-'));
  const cert = await makeDevCertificate(await makeDevCa(), { hosts: ['127.0.0.1'] });
  writeFileSync(join(dir, 'proxy.pem'), `${cert.cert.trim()}\n${cert.key.trim()}\n`, {
    mode: 0o600,
  });
  const port = await freePort();
  let stderr = '';
  const child = spawn(bin, ['-f', join(CONFIG_DIR, 'haproxy.cfg')], {
    env: {
      PATH: process.env.PATH ?? '',
      PROXY_BIND: `127.0.0.1:${port}`,
      PROXY_CERT: join(dir, 'proxy.pem'),
      TOLLGATE_API: `127.0.0.1:${apiPort}`,
      PROXY_ERRORS: CONFIG_DIR,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null && child.pid)
      process.kill(child.pid, 'SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };
  // Listening once its configuration is read; a configuration it refuses ends it.
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) {
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`haproxy exited with code ${child.exitCode}: ${stderr}`);
    }
    if (await listening(port)) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`haproxy did not listen within 10 s: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return { baseUrl: `https://127.0.0.1:${port}`, stop };
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
