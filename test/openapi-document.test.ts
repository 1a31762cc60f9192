import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../src/keys/keys.js';
import { API_ONLY, startTestAppliance } from './helpers/appliance.js';
import { describeInChromium, saveScreenshot } from './helpers/browser.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import { call } from './helpers/http.js';

/**
 * The OpenAPI document as the appliance serves it: valid for the two tools integrators use
 * (Redocly's linter with its recommended rules, and swagger-parser, which code generators build
 * on), complete (an operationId, an example and the error answers for every operation, the
 * webhooks), and the /docs page that renders it in a real browser without anything from
 * outside the appliance.
 */

let db: TestDatabase;
let app: Awaited<ReturnType<typeof startTestAppliance>>;
let apikey: string;
let doc: any;
const run = promisify(execFile);

beforeAll(async () => {
  db = await freshDatabase();
  apikey = (await createApiKey(db.sql, 'docs')).apikey;
  app = await startTestAppliance(db.url, {}, API_ONLY);
  const res = await call(app.baseUrl, 'GET', '/v2/openapi.json', { headers: { apikey } });
  expect(res.status).toBe(200);
  doc = res.json;
}, 60_000);

afterAll(async () => {
  await app?.stop();
  await db?.drop();
});

const operations = () =>
  Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ path, method, op })),
  );

describe('the OpenAPI document', () => {
  it('has no errors or warnings from redocly lint (recommended rules)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tollgate-openapi-'));
    const file = join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(doc));
    const result = await run(
      './node_modules/.bin/redocly',
      ['lint', '--format=json', '--extends=recommended', file],
      {
        env: {
          ...process.env,
          REDOCLY_TELEMETRY: 'off',
          REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
          NO_COLOR: '1',
        },
      },
    ).catch((err: { stdout: string; stderr: string; code: number }) => err);
    const report = JSON.parse(result.stdout) as {
      totals: { errors: number; warnings: number };
      problems: { message: string; ruleId: string; location: { pointer: string }[] }[];
    };
    expect(
      report.problems.map((p) => `${p.ruleId} ${p.location[0]?.pointer}: ${p.message}`),
    ).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  }, 60_000);

  it('is valid for swagger-parser (every $ref resolves, the 3.1 schema holds)', async () => {
    const api = await SwaggerParser.validate(structuredClone(doc));
    expect(Object.keys(api.paths ?? {})).toEqual(Object.keys(doc.paths));
    // And the validator is not lenient: a dangling reference is refused.
    const broken = structuredClone(doc);
    broken.paths['/stream/list'].get.responses['200'].content['application/json'].schema = {
      $ref: '#/components/schemas/Nowhere',
    };
    await expect(SwaggerParser.validate(broken)).rejects.toThrow(/Nowhere/);
  });

  it('is OpenAPI 3.1 with one unique operationId per operation', () => {
    expect(doc.openapi).toBe('3.1.0');
    const ids = operations().map(({ op }) => op.operationId);
    expect(ids.every((id) => typeof id === 'string' && /^[a-z][A-Za-z]+$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(
      expect.arrayContaining([
        'streamCreate',
        'streamList',
        'walletNfts',
        'analyzeTxDetail',
        'postTravelruleWebhook',
        'getTravelruleWebhook',
        'deleteTravelruleWebhook',
      ]),
    );
  });

  it('documents every operation: description of its errors, 401/429/500/503, an example request and answer', () => {
    for (const { path, method, op } of operations()) {
      const where = `${method} ${path}`;
      expect(op.summary, where).toBeTruthy();
      expect(Object.keys(op.responses), where).toEqual(
        expect.arrayContaining(['200', '401', '429', '500', '503']),
      );
      // A route that refuses nothing of its input (GET /travelrule/webhook) has no 400.
      if (op.responses['400']) expect(op.responses['400'].description, where).toMatch(/\b5\d{3}\b/);
      expect(op.responses['200'].content['application/json'].example, where).toMatchObject({
        code: 0,
        message: 'OK',
      });
      if (op.parameters?.length || op.requestBody)
        expect(Object.keys(op.responses), where).toContain('400');
      if (op.requestBody) {
        expect(op.requestBody.content['application/json'].example, where).toBeTypeOf('object');
        expect(Object.keys(op.responses), where).toContain('413');
        // Closed at the top: a field the route does not take is refused (5000); apikey is taken.
        const schema = op.requestBody.content['application/json'].schema;
        expect(schema.additionalProperties, where).toBe(false);
        expect(schema.properties.apikey, where).toMatchObject({ type: 'string' });
      }
      // Every required parameter has an example (optional ones may show their default).
      for (const p of op.parameters ?? [])
        if (p.required) expect(p.example, `${where} ${p.name}`).toBeDefined();
    }
  });

  it('describes the webhooks the appliance sends, with their signature headers', () => {
    expect(Object.keys(doc.webhooks ?? {})).toEqual(
      expect.arrayContaining(['streamEvm', 'streamBitcoin', 'liveAml', 'travelRule', 'retraction']),
    );
    for (const [name, item] of Object.entries(doc.webhooks as Record<string, any>)) {
      const headers = item.post.parameters.map((p: { name: string }) => p.name);
      expect(headers, name).toEqual(
        expect.arrayContaining(['webhook-id', 'webhook-timestamp', 'webhook-signature']),
      );
      expect(item.post.requestBody.content['application/json'].example, name).toBeTypeOf('object');
    }
  });

  it('is the same at /docs/openapi.json, which needs no API key', async () => {
    const open = await call(app.baseUrl, 'GET', '/docs/openapi.json');
    expect(open.status).toBe(200);
    expect(open.json).toEqual(doc);
  });
});

describeInChromium('the /docs page in a real browser', (chromium) => {
  it('renders the reference from the appliance alone: no other origin, no CSP violation, no error', async () => {
    const context = await chromium.context(app.baseUrl);
    const page = await context.newPage();
    const origins = new Set<string>();
    const problems: string[] = [];
    page.on('request', (req) => origins.add(new URL(req.url()).origin));
    page.on('console', (msg) => {
      if (msg.type() === 'error') problems.push(msg.text());
    });
    page.on('pageerror', (err) => problems.push(err.message));
    page.on('response', (r) => {
      if (r.status() >= 400) problems.push(`${r.status()} ${r.url()}`);
    });
    const res = await page.goto('/docs');
    expect(res?.status()).toBe(200);
    expect(res?.headers()['content-security-policy']).toContain("default-src 'none'");
    await page
      .getByRole('heading', { name: /Tollgate API/ })
      .first()
      .waitFor({ timeout: 30_000 });
    // Operations, their examples and the webhooks section are on the page.
    const summary = doc.paths['/stream/create'].post.summary as string;
    await page.locator('h2', { hasText: summary }).first().waitFor({ timeout: 10_000 });
    const webhook = doc.webhooks.liveAml.post.summary as string;
    await page.locator('h2', { hasText: webhook }).first().waitFor({ timeout: 10_000 });
    await saveScreenshot(page, 'docs');
    const own = new URL(app.baseUrl).origin;
    expect([...origins].filter((o) => o !== own && !o.startsWith('blob:') && o !== 'null')).toEqual(
      [],
    );
    expect(problems).toEqual([]);
    await context.close();
  }, 90_000);
});
