/**
 * A webhook receiver for the quick start: prints each webhook and whether its Standard Webhooks
 * signature verifies.   WEBHOOK_SECRET=whsec_… npm run demo:receiver   (listens on 127.0.0.1:9000)
 */
import { createServer } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import { signWebhook } from '../webhooks/sign.js';
import { summarizeWebhook } from './webhook-summary.js';

const secret = process.env.WEBHOOK_SECRET;
const port = Number(process.env.PORT ?? 9000);

createServer((req, res) => {
  let body = '';
  req.on('data', (d) => (body += d));
  req.on('end', () => {
    const id = String(req.headers['webhook-id'] ?? '');
    const ts = Number(req.headers['webhook-timestamp'] ?? 0);
    const given = String(req.headers['webhook-signature'] ?? '');
    let verdict = 'not checked (set WEBHOOK_SECRET)';
    if (secret) {
      const expected = Buffer.from(signWebhook(secret, id, ts, body));
      const ok = given
        .split(' ')
        .some(
          (s) =>
            Buffer.from(s).length === expected.length && timingSafeEqual(Buffer.from(s), expected),
        );
      verdict = ok ? 'valid' : 'INVALID';
    }
    const summary = summarizeWebhook(body);
    process.stdout.write(`webhook ${id} signature ${verdict}: ${summary}\n`);
    res.writeHead(200).end();
  });
}).listen(port, '127.0.0.1', () =>
  process.stdout.write(`demo receiver on http://127.0.0.1:${port}/\n`),
);
