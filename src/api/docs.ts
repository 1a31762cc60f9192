import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { Hono } from 'hono';

/**
 * The API reference at /docs: the OpenAPI document rendered by Redoc in the browser. Everything
 * the page needs comes from the appliance (Redoc's self-contained bundle from node_modules, the
 * document at /docs/openapi.json): no CDN, no web fonts, nothing leaves the building. The page
 * needs no API key (it shows the contract, no data); the strict CSP allows only this origin,
 * plus the inline styles and the blob: search worker Redoc creates.
 */

const REDOC_BUNDLE = createRequire(import.meta.url).resolve('redoc/bundles/redoc.standalone.js');
/**
 * The one thing Redoc's bundle loads from elsewhere: the logo beside "API docs by Redocly". Served
 * without it (an empty src fails at once and Redoc drops the image), so the browser asks no CDN;
 * the CSP would refuse it anyway. test/openapi-document.test.ts sees every request of the page.
 */
const REDOC_LOGO = 'https://cdn.redoc.ly/redoc/logo-mini.svg';

const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; worker-src blob:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'x-frame-options': 'DENY',
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Tollgate API reference</title>
<link rel="icon" href="data:,">
<style>body { margin: 0; font-family: system-ui, sans-serif; }</style>
</head>
<body>
<div id="redoc"><noscript>The API reference needs JavaScript. The document itself: <a href="/docs/openapi.json">/docs/openapi.json</a>.</noscript></div>
<script src="/docs/redoc.standalone.js"></script>
<script src="/docs/init.js"></script>
</body>
</html>
`;

// System fonts (no web fonts to fetch); the download button offers the document as served.
const INIT = `Redoc.init('/docs/openapi.json', {
  theme: { typography: { fontFamily: 'system-ui, sans-serif', headings: { fontFamily: 'system-ui, sans-serif' }, code: { fontFamily: 'ui-monospace, monospace' } } },
  expandResponses: '200',
  jsonSampleExpandLevel: 3,
  sortTagsAlphabetically: false,
}, document.getElementById('redoc'));
`;

export function docsRoutes(document: unknown): Hono {
  const app = new Hono();
  let bundle: Promise<string> | undefined;
  app.use('*', async (c, next) => {
    await next();
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) c.header(name, value);
  });
  app.get('/', (c) => c.html(PAGE));
  app.get('/openapi.json', (c) => c.json(document));
  app.get('/init.js', (c) =>
    c.body(INIT, 200, { 'content-type': 'text/javascript; charset=utf-8' }),
  );
  app.get('/redoc.standalone.js', async (c) => {
    bundle ??= readFile(REDOC_BUNDLE, 'utf8')
      .then((text) => text.replaceAll(REDOC_LOGO, ''))
      .catch((err: unknown) => {
        bundle = undefined;
        throw err;
      });
    return c.body(await bundle, 200, {
      'content-type': 'text/javascript; charset=utf-8',
      'cache-control': 'public, max-age=86400',
    });
  });
  return app;
}
