import { describe, expect, it } from 'vitest';
import { WEBHOOK_HEADERS, WEBHOOKS } from '../../src/api/webhook-contract.js';
import { withSequence } from '../../src/webhooks/deliver.js';
import { webhookHeaders } from '../../src/webhooks/sign.js';
import {
  contractViolations,
  strictJsonSchema,
  type WebhookName,
  webhookSpec,
} from '../helpers/webhook-contract.js';

type Json = any;
const NAMES: WebhookName[] = [
  'streamEvm',
  'streamBitcoin',
  'liveAml',
  'travelRule',
  'retraction',
  'test',
  'endpointDisabled',
];

/** A deep copy of a webhook's example, changed by `change`. */
function mutated(name: WebhookName, change: (body: Json) => void): Json {
  const body = structuredClone(webhookSpec(name).example) as Json;
  change(body);
  return body;
}

/** The retraction the outbox writes for a stored body (src/webhooks/events.ts retractionRows, deliver.ts withSequence). */
function retractionOf(example: Json, sequence: number): Json {
  const { sequence: _, ...stored } = example;
  const body = `{"removed":true,${JSON.stringify(stored).slice(1)}`.replace(
    '"confirmed":true',
    '"confirmed":false',
  );
  return JSON.parse(withSequence(body, String(sequence)));
}

describe('webhook contract', () => {
  it('lists each webhook once, with a summary and a description', () => {
    expect(WEBHOOKS.map((w) => w.name)).toEqual(NAMES);
    for (const w of WEBHOOKS) {
      expect(w.summary.length).toBeGreaterThan(0);
      expect(w.description.length).toBeGreaterThan(100);
    }
  });

  it('has examples that keep their contract strictly', () => {
    for (const w of WEBHOOKS) {
      expect(() => w.body.parse(w.example), w.name).not.toThrow();
      expect(contractViolations(w, w.example), w.name).toEqual([]);
    }
  });

  it('converts to JSON Schema without ids or references (inlined in the document)', () => {
    for (const w of WEBHOOKS) {
      const text = JSON.stringify(strictJsonSchema(w));
      expect(text, w.name).not.toContain('"$ref"');
      expect(text, w.name).not.toContain('"$defs"');
      expect(text, w.name).not.toContain('"id"');
    }
  });

  it('refuses an unknown key at the top and deep inside, even where zod alone would strip it', () => {
    const deep: Record<WebhookName, (b: Json) => void> = {
      streamEvm: (b) => (b.tx.logs[0].extra = 1),
      streamBitcoin: (b) => (b.inputs[0].coin.extra = 1),
      liveAml: (b) => (b.triggered_by[0].extra = 1),
      travelRule: (b) => (b.persons[0].naturalPerson.geographicAddress[0].extra = 'x'),
      retraction: (b) => (b.tx.extra = 1),
      test: (b) => (b.extra = 1),
      endpointDisabled: (b) => (b.data.extra = 1),
    };
    for (const name of NAMES) {
      for (const change of [(b: Json) => (b.unexpected = true), deep[name]]) {
        const body = mutated(name, change);
        const problems = contractViolations(name, body);
        expect(problems, name).toContainEqual(
          expect.stringMatching(/^schema .*must NOT have additional properties/),
        );
      }
    }
    // A tag that does not exist is an unknown key of `tags` too.
    expect(
      contractViolations(
        'liveAml',
        mutated('liveAml', (b) => (b.tags.direct_unknown = true)),
      ),
    ).not.toEqual([]);
  });

  it('refuses a missing required field, a wrong type and a null where none is documented', () => {
    const cases: [WebhookName, string, (b: Json) => void][] = [
      ['streamEvm', 'missing sequence', (b) => delete b.sequence],
      ['streamEvm', 'missing tx.gasPrice', (b) => delete b.tx.gasPrice],
      ['streamEvm', 'value as a string', (b) => (b.tx.value = '0')],
      ['streamEvm', 'null hash', (b) => (b.tx.hash = null)],
      ['streamEvm', 'unknown network', (b) => (b.network = 'bitcoin')],
      ['streamEvm', 'fractional wei', (b) => (b.erc20Transfers[0].value = 1.5)],
      ['streamEvm', 'confirmed as a string', (b) => (b.confirmed = 'false')],
      ['streamBitcoin', 'missing blockHash', (b) => delete b.blockHash],
      ['streamBitcoin', 'null output script', (b) => (b.outputs[0].script = null)],
      ['streamBitcoin', 'fee as a string', (b) => (b.fee = '14400')],
      ['streamBitcoin', 'coin without coinbase', (b) => delete b.inputs[0].coin.coinbase],
      ['liveAml', 'missing a tag', (b) => delete b.tags.mixer],
      ['liveAml', 'null hash', (b) => (b.hash = null)],
      ['liveAml', 'score as a string', (b) => (b.score = '48')],
      ['liveAml', 'a false hash tag', (b) => (b.hash_tags.direct_mixer = false)],
      ['liveAml', 'a confirmed field', (b) => (b.confirmed = true)],
      ['travelRule', 'missing transaction_ref', (b) => delete b.transaction_ref],
      ['travelRule', 'unknown status', (b) => (b.status = 'PENDING')],
      ['travelRule', 'WAITING_ADDRESS_DATA without persons', (b) => delete b.persons],
      ['travelRule', 'txid on another status', (b) => (b.txid = '0xab')],
      ['travelRule', 'null name', (b) => (b.persons[0].naturalPerson.name = null)],
      [
        'travelRule',
        'lower-case country',
        (b) => (b.persons[0].naturalPerson.geographicAddress[0].country = 'tr'),
      ],
      ['retraction', 'removed false', (b) => (b.removed = false)],
      ['retraction', 'confirmed true', (b) => (b.confirmed = true)],
      ['retraction', 'missing removed', (b) => delete b.removed],
    ];
    for (const [name, what, change] of cases)
      expect(contractViolations(name, mutated(name, change)), `${name}: ${what}`).not.toEqual([]);
  });

  it('takes every travel rule status with exactly its own fields', () => {
    const base = { transaction_ref: 'wd-2026-0001' };
    expect(contractViolations('travelRule', { ...base, status: 'OTHER_VASP_REJECTED' })).toEqual(
      [],
    );
    // An approval always says where to pay (null only for an e-mailed approval recorded without
    // an address) and whether that is another account than create_tx named.
    for (const [address, differs] of [
      ['0x70997970c51812dc3a010c7d01b50e0d17dc79c8', false],
      ['0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc', true],
      [null, null],
    ] as const)
      expect(
        contractViolations('travelRule', {
          ...base,
          status: 'OTHER_VASP_APPROVED',
          beneficiary_address: address,
          beneficiary_address_differs: differs,
        }),
      ).toEqual([]);
    expect(
      contractViolations('travelRule', { ...base, status: 'OTHER_VASP_APPROVED' }),
    ).not.toEqual([]);
    expect(
      contractViolations('travelRule', { ...base, status: 'TRANSACTION_CONFIRMED', txid: '0xab' }),
    ).toEqual([]);
    expect(
      contractViolations('travelRule', { ...base, status: 'TRANSACTION_CONFIRMED' }),
    ).not.toEqual([]);
    expect(
      contractViolations('travelRule', { ...base, status: 'OTHER_VASP_APPROVED', persons: [] }),
    ).not.toEqual([]);
  });

  it('takes the retraction the outbox writes of each retractable body, and no other', () => {
    for (const name of ['streamEvm', 'streamBitcoin', 'liveAml'] as const) {
      const retraction = retractionOf(webhookSpec(name).example, 99);
      expect(Object.keys(retraction).slice(0, 2)).toEqual(['sequence', 'removed']);
      expect(contractViolations('retraction', retraction), name).toEqual([]);
      // The body itself is not a retraction, and a retraction is not the body.
      expect(contractViolations('retraction', webhookSpec(name).example), name).not.toEqual([]);
      expect(contractViolations(name, retraction), name).not.toEqual([]);
    }
    const confirmedBitcoin = retractionOf(webhookSpec('streamBitcoin').example, 5);
    expect(confirmedBitcoin.confirmed).toBe(false);
    // Travel rule webhooks are never retracted.
    expect(
      contractViolations('retraction', {
        removed: true,
        ...(webhookSpec('travelRule').example as object),
      }),
    ).not.toEqual([]);
  });

  it('documents exactly the headers a webhook POST carries', () => {
    const sent = Object.keys(
      webhookHeaders('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'msg_1', '{}'),
    );
    // content-length is added by src/webhooks/post.ts.
    expect(WEBHOOK_HEADERS.map((h) => h.name).sort()).toEqual([...sent, 'content-length'].sort());
    const headers = webhookHeaders('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'msg_1', '{}');
    for (const name of ['content-type', 'user-agent'])
      expect(WEBHOOK_HEADERS.find((h) => h.name === name)!.description).toContain(
        `\`${headers[name]}\``,
      );
  });
});
