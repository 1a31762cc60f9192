import { afterAll, expect, it } from 'vitest';
import { postWebhook } from '../src/webhooks/post.js';
import { parseAllowList } from '../src/net/ssrf.js';
import { freePort } from '../support/ports.js';
import { RawReceivers } from './helpers/receiver.js';

/**
 * Whether a failed POST may have reached its receiver decides whether a reorg retracts the event
 * (webhook_events.in_doubt): real receivers on loopback that take the body and never answer,
 * hang up after reading it, answer 500, or are not there at all.
 */

const allow = parseAllowList(['127.0.0.0/8']);
const receivers = new RawReceivers();
afterAll(() => {
  receivers.close();
});

it('is in doubt when the body went out and no answer came: a timeout, a hang-up after reading it', async () => {
  const silent = await receivers.listen((req) => req.resume());
  const timedOut = await postWebhook(silent, {}, '{"a":1}', { timeoutMs: 300, allow });
  expect(timedOut).toMatchObject({ status_code: null, retryable: true, in_doubt: true });

  const hangUp = await receivers.listen((req) => {
    req.resume();
    req.on('end', () => req.socket.destroy());
  });
  const reset = await postWebhook(hangUp, {}, '{"a":1}', { timeoutMs: 2000, allow });
  expect(reset).toMatchObject({ status_code: null, in_doubt: true });
});

it('is not in doubt when the receiver answered, or was never reached', async () => {
  const failing = await receivers.listen((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(500).end());
  });
  expect(await postWebhook(failing, {}, '{}', { timeoutMs: 2000, allow })).toMatchObject({
    status_code: 500,
    in_doubt: false,
  });
  const nobody = `http://127.0.0.1:${await freePort()}/hook`;
  expect(await postWebhook(nobody, {}, '{}', { timeoutMs: 2000, allow })).toMatchObject({
    status_code: null,
    in_doubt: false,
  });
});
