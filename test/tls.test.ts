import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, createServer, type SecureVersion, type Server } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadTls } from '../src/api/tls.js';
import { ConfigError } from '../src/config/index.js';
import { log } from '../src/log.js';
import { startTestAppliance } from './helpers/appliance.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';

/** The API's TLS refuses protocols older than TLS 1.2; 1.2 and 1.3 work. */

const API_ONLY = { api: true, worker: false, indexer: false, devChain: false } as const;

let db: TestDatabase;
let app: Awaited<ReturnType<typeof startTestAppliance>>;

beforeAll(async () => {
  db = await freshDatabase();
  app = await startTestAppliance(db.url, {}, API_ONLY);
});
afterAll(async () => {
  await app?.stop();
  await db?.drop();
});

type Outcome = { ok: true; protocol: string | null } | { ok: false; code: string; message: string };

/** A handshake with the client limited to [min, max]; SECLEVEL=0 lets OpenSSL even offer old protocols. */
function handshake(port: number, min: SecureVersion, max: SecureVersion): Promise<Outcome> {
  return new Promise((resolve) => {
    const socket = connect({
      host: '127.0.0.1',
      port,
      rejectUnauthorized: false,
      minVersion: min,
      maxVersion: max,
      ciphers: 'DEFAULT@SECLEVEL=0',
    });
    socket.once('secureConnect', () => {
      const protocol = socket.getProtocol();
      socket.end();
      resolve({ ok: true, protocol });
    });
    socket.once('error', (err: NodeJS.ErrnoException) => {
      socket.destroy();
      resolve({ ok: false, code: err.code ?? '', message: err.message });
    });
  });
}

describe('TLS versions', () => {
  it('accepts TLS 1.2 and TLS 1.3', async () => {
    expect(await handshake(app.apiPort!, 'TLSv1.2', 'TLSv1.2')).toEqual({
      ok: true,
      protocol: 'TLSv1.2',
    });
    expect(await handshake(app.apiPort!, 'TLSv1.3', 'TLSv1.3')).toEqual({
      ok: true,
      protocol: 'TLSv1.3',
    });
  });

  it('refuses a client that offers TLS 1.1 or older', async () => {
    // Control: this machine's OpenSSL can speak TLS 1.1 to a server that allows it, so the
    // refusal below is the appliance's, not the client library's.
    const dir = mkdtempSync(join(tmpdir(), 'tollgate-tls-'));
    const material = await loadTls({ dataDir: dir });
    const legacy: Server = createServer(
      {
        cert: material.cert,
        key: material.key,
        minVersion: 'TLSv1',
        ciphers: 'DEFAULT@SECLEVEL=0',
      },
      (s) => s.end(),
    );
    await new Promise<void>((r) => legacy.listen(0, '127.0.0.1', r));
    const control = await handshake(
      (legacy.address() as { port: number }).port,
      'TLSv1',
      'TLSv1.1',
    );
    legacy.close();

    for (const [min, max] of [
      ['TLSv1', 'TLSv1.1'],
      ['TLSv1.1', 'TLSv1.1'],
      ['TLSv1', 'TLSv1'],
    ] as const) {
      const outcome = await handshake(app.apiPort!, min, max);
      expect(outcome.ok, `${min}..${max}`).toBe(false);
      if (outcome.ok) continue;
      if (control.ok) {
        // The server answered the old ClientHello with a protocol_version alert.
        expect(outcome.code, `${min}..${max}: ${outcome.message}`).toMatch(
          /PROTOCOL_VERSION|UNSUPPORTED_PROTOCOL|WRONG_VERSION/,
        );
      } else {
        // The local OpenSSL would not even offer TLS 1.1: the refusal is the client's own.
        expect(outcome.code).toMatch(/NO_PROTOCOLS_AVAILABLE|UNSUPPORTED_PROTOCOL/);
      }
    }
    if (!control.ok)
      console.info(
        `tls.test: the local OpenSSL does not offer TLS 1.1 at all (${control.code}); the refusal was checked on the client side only`,
      );
  });
});

describe('ALPN', () => {
  /** The protocol the server picks from `offered`, and the status line of a GET /healthz over it. */
  function negotiate(
    offered: string[],
  ): Promise<{ alpn: string | false; statusLine?: string; error?: string }> {
    return new Promise((resolve) => {
      const socket = connect({
        host: '127.0.0.1',
        port: app.apiPort!,
        rejectUnauthorized: false,
        ALPNProtocols: offered,
      });
      let answer = '';
      socket.once('secureConnect', () => {
        const version = socket.alpnProtocol === 'http/1.0' ? '1.0' : '1.1';
        socket.write(
          `GET /healthz HTTP/${version}\r\nHost: localhost\r\nConnection: close\r\n\r\n`,
        );
      });
      socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
      socket.once('end', () =>
        resolve({ alpn: socket.alpnProtocol ?? false, statusLine: answer.split('\r\n')[0] }),
      );
      socket.once('error', (err: NodeJS.ErrnoException) => {
        socket.destroy();
        resolve({ alpn: false, error: err.code ?? err.message });
      });
    });
  }

  it('takes a client asking for HTTP/1.0 (curl --http1.0) and prefers HTTP/1.1', async () => {
    // The handshake failed with no_application_protocol: Node's server offers http/1.1 only.
    // Answered in HTTP/1.1's status line, as RFC 9110 section 6.2 has a server answer a 1.0 request.
    expect(await negotiate(['http/1.0'])).toEqual({
      alpn: 'http/1.0',
      statusLine: 'HTTP/1.1 200 OK',
    });
    expect(await negotiate(['http/1.0', 'http/1.1'])).toMatchObject({
      alpn: 'http/1.1',
      statusLine: 'HTTP/1.1 200 OK',
    });
    expect(await negotiate(['h2', 'http/1.1'])).toMatchObject({ alpn: 'http/1.1' });
    // HTTP/2 is not spoken: a client that offers nothing else is refused in the handshake.
    expect((await negotiate(['h2'])).error).toMatch(/NO_APPLICATION_PROTOCOL/);
  });
});

describe('keep-alive', () => {
  it('keeps an idle connection open past Node’s default 5 s, and says for how long', async () => {
    const socket = connect({ host: '127.0.0.1', port: app.apiPort!, rejectUnauthorized: false });
    let received = '';
    let closed = false;
    socket.setEncoding('utf8').on('data', (chunk: string) => (received += chunk));
    socket.on('close', () => (closed = true));
    const answered = async (n: number) => {
      for (let i = 0; i < 100 && (received.match(/"status":"ok"/g) ?? []).length < n; i++)
        await new Promise((r) => setTimeout(r, 50));
      return (received.match(/"status":"ok"/g) ?? []).length;
    };
    const ask = () => socket.write('GET /healthz HTTP/1.1\r\nHost: tollgate\r\n\r\n');
    try {
      await new Promise((r) => socket.once('secureConnect', r));
      ask();
      expect(await answered(1)).toBe(1);
      expect(received.toLowerCase()).toContain('keep-alive: timeout=65');
      await new Promise((r) => setTimeout(r, 6_000));
      expect(closed).toBe(false);
      ask();
      expect(await answered(2)).toBe(2);
    } finally {
      socket.destroy();
    }
  }, 20_000);
});

describe("the operator's certificate files", () => {
  it('are a configuration error naming the settings when unreadable, not PEM, or not a pair', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tollgate-tls-'));
    const own = await loadTls({ dataDir: dir });
    const other = await loadTls({ dataDir: mkdtempSync(join(tmpdir(), 'tollgate-tls-')) });
    const file = (name: string, text: string) => {
      const path = join(dir, name);
      writeFileSync(path, text);
      return path;
    };
    const cert = file('cert.pem', own.cert);
    const key = file('key.pem', own.key);
    expect(await loadTls({ certFile: cert, keyFile: key, dataDir: dir })).toMatchObject({
      selfSigned: false,
    });
    // A key file others may read is taken, and said (as the data key's is).
    chmodSync(key, 0o644);
    const warn = vi.spyOn(log, 'warn');
    try {
      await loadTls({ certFile: cert, keyFile: key, dataDir: dir });
      expect(warn).toHaveBeenCalledWith(
        { path: key, mode: '644' },
        "the TLS certificate's private key file is readable by others; chmod 600 it",
      );
    } finally {
      warn.mockRestore();
    }
    for (const [certFile, keyFile, message] of [
      [dir, key, /^TOLLGATE_TLS_CERT: cannot read .* \(EISDIR\)$/],
      [cert, join(dir, 'none.pem'), /^TOLLGATE_TLS_KEY: cannot read .* \(ENOENT\)$/],
      [file('text.pem', 'hello'), key, /^TOLLGATE_TLS_CERT, TOLLGATE_TLS_KEY: not a PEM/],
      [cert, file('other.pem', other.key), /^TOLLGATE_TLS_CERT, TOLLGATE_TLS_KEY: not a PEM/],
    ] as const) {
      const err = await loadTls({ certFile, keyFile, dataDir: dir }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as Error).message).toMatch(message);
    }
  });
});
