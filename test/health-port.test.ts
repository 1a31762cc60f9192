import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { readFileSync } from 'node:fs';
import { freePort } from '../support/ports.js';
import { createApiKey } from '../src/keys/keys.js';
import { loadConfig } from '../src/config/index.js';
import { API_ONLY, startTestAppliance } from './helpers/appliance.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import { call } from './helpers/http.js';

/**
 * The health listener (TOLLGATE_HEALTH_PORT): /healthz and /readyz over plain HTTP on a socket of
 * their own, for probes (src/api/health.ts). Here behind a TLS-terminating proxy
 * (TOLLGATE_TRUST_PROXY), where the API port refuses anything the proxy did not mark: a probe
 * sent to it directly fails, one to the health listener does not.
 */
let db: TestDatabase;
let app: Awaited<ReturnType<typeof startTestAppliance>>;
let apikey: string;
let health: string;

beforeAll(async () => {
  db = await freshDatabase();
  app = await startTestAppliance(
    db.url,
    { TOLLGATE_TRUST_PROXY: '10.200.0.1/32', TOLLGATE_HEALTH_PORT: '0' },
    API_ONLY,
  );
  apikey = (await createApiKey(db.sql, 'health')).apikey;
  health = `http://127.0.0.1:${app.healthPort}`;
});
afterAll(async () => {
  await app?.stop();
  await db?.drop();
});

describe('the health listener', () => {
  it('answers /healthz and /readyz over plain HTTP, where the API port refuses a direct probe', async () => {
    expect(app.healthPort).toBeGreaterThan(0);
    expect(app.healthPort).not.toBe(app.apiPort);
    const direct = await call(`http://127.0.0.1:${app.apiPort}`, 'GET', '/healthz');
    expect(direct.status).toBe(403);

    const live = await call(health, 'GET', '/healthz');
    expect(live.status).toBe(200);
    expect(live.json).toEqual({ status: 'ok' });

    // The same readiness as the API's own /readyz (asked as the proxy would).
    const ready = await call(health, 'GET', '/readyz');
    const viaApi = await call(`http://127.0.0.1:${app.apiPort}`, 'GET', '/readyz', {
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(viaApi.status).toBe(403); // not from the configured proxy: refused, as any direct client
    expect([200, 503]).toContain(ready.status);
    expect(ready.json).toMatchObject({ database: true, networks: expect.any(Object) });
    expect(ready.json.ready).toBe(ready.status === 200);
  });

  it('serves nothing else: no API, no metrics, no dashboard, whatever the key', async () => {
    for (const path of ['/v2/stream/list', '/metrics', '/dashboard', '/docs/openapi.json', '/']) {
      const reply = await call(health, 'GET', path, { headers: { apikey } });
      expect(reply.status, path).toBe(404);
      expect(reply.json, path).toEqual({
        code: 4040,
        status: 4040,
        message: 'The health listener answers GET /healthz and GET /readyz only.',
      });
    }
    const posted = await call(health, 'POST', '/healthz', { body: { x: 1 } });
    expect(posted.status).toBe(404);
  });

  it('gives one answer to a request whose body it did not read, even when that body breaks', async () => {
    // A chunked body whose framing breaks after the 404 went out (found by an outside probe: a
    // second answer, the parser's 400, followed the 404 on the same connection).
    const answer = await new Promise<string>((resolve) => {
      const socket = connect(app.healthPort!, '127.0.0.1', () =>
        socket.write(
          'POST /healthz HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{"a":\r\nZZ\r\n',
        ),
      );
      let data = '';
      socket.on('data', (d) => (data += d.toString('latin1')));
      socket.on('close', () => resolve(data));
      socket.on('error', () => resolve(data));
      setTimeout(() => socket.destroy(), 5000);
    });
    expect(answer.match(/HTTP\/1\.1 /g), answer).toHaveLength(1);
    expect(answer).toMatch(/^HTTP\/1\.1 404 /);
  });

  it('speaks no TLS: an HTTPS client gets no answer from it', async () => {
    await expect(call(`https://127.0.0.1:${app.healthPort}`, 'GET', '/healthz')).rejects.toThrow();
  });
});

describe("the image's HEALTHCHECK (Dockerfile)", () => {
  // The command as the Dockerfile has it, run as Docker runs it in the container: with the
  // image's environment (TOLLGATE_HEALTH_PORT), exit 0 healthy, anything else unhealthy.
  const dockerfile = readFileSync(new URL('../Dockerfile', import.meta.url), 'utf8');
  const script = /HEALTHCHECK[^\n]*\\\n\s*CMD node -e "(.+)"\n/.exec(dockerfile)?.[1];
  const port = /TOLLGATE_HEALTH_PORT=(\d+)/.exec(dockerfile)?.[1];
  // Asynchronously: the appliance it probes answers from this process.
  const run = (healthPort: number) =>
    new Promise<number | null>((resolve) => {
      const child = spawn(process.execPath, ['-e', script!], {
        env: { PATH: process.env.PATH ?? '', TOLLGATE_HEALTH_PORT: String(healthPort) },
        stdio: 'ignore',
        timeout: 10_000,
      });
      child.on('exit', (code) => resolve(code));
    });

  it('sets the health listener and probes it: healthy while it answers, unhealthy without it', async () => {
    expect(script, 'HEALTHCHECK CMD node -e "…"').toBeDefined();
    expect(port, 'ENV TOLLGATE_HEALTH_PORT').toBeDefined();
    // This appliance is behind a proxy (TOLLGATE_TRUST_PROXY): its API port answers probes 403.
    expect(await run(app.healthPort!)).toBe(0);
    expect(await run(await freePort())).toBe(1);
  });
});

describe('TOLLGATE_HEALTH_PORT in the configuration', () => {
  it('refuses the API port or the TRP port, naming the clash', () => {
    const base = { DATABASE_URL: 'postgres://x@127.0.0.1/x', TOLLGATE_DATA_DIR: '/tmp' };
    expect(() =>
      loadConfig({ ...base, TOLLGATE_PORT: '8443', TOLLGATE_HEALTH_PORT: '8443' }),
    ).toThrow(/HEALTH_PORT.*must differ from port \(8443\)/s);
    expect(() => loadConfig({ ...base, TOLLGATE_HEALTH_PORT: 'x' })).toThrow(/HEALTH_PORT/);
    expect(loadConfig({ ...base, TOLLGATE_HEALTH_PORT: '8081' }).health_port).toBe(8081);
    expect(loadConfig(base).health_port).toBeUndefined();
  });
});
