import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createApiKey } from '../src/keys/keys.js';
import { createOperator } from '../src/operators/operators.js';
import { upsertVasp } from '../src/travelrule/vasps.js';
import { startTestAppliance } from './helpers/appliance.js';
import { fundedWallet, randomAddress } from './helpers/chain.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import { eventually } from './helpers/eventually.js';
import { call, type Reply } from './helpers/http.js';
import { MailCatcher } from './helpers/mail.js';
import { documentValidator, type DocumentValidator } from './helpers/openapi.js';
import { Receiver } from './helpers/receiver.js';
import { travelBody } from './helpers/travelrule.js';
import { inquiryText, trpSend } from './helpers/trp-peer.js';

/**
 * The OpenAPI document against the real appliance (API, worker and indexer on the dev chain, a
 * real SMTP server, TRP and webhook peers on loopback). For every operation of the document, a
 * real request that succeeds with data, and:
 * - the real answer validates against the documented response schema (closed: an undocumented
 *   field fails);
 * - the operation's example answer validates too, and has the real answer's structure: the same
 *   key paths and the same JSON types at each (array items merged), so an example cannot show a
 *   field, a nesting or a null the appliance does not give, nor leave out one it gives. There is
 *   no exception for optional fields: each real request here is chosen so that its answer has
 *   the fields its example shows (analyze/aml without detail=true, no explanation in either);
 * - the example request (parameters' examples, requestBody example) validates against the
 *   documented request schema. Where the example request can run here as written (it names no
 *   outside URL or on-chain data of its own), it is the real request.
 */

type Json = Record<string, any>;

// ---------------------------------------------------------------------------------------------
// The structure of a JSON value, and how two structures differ.

/** JSON type of a value: integers and other numbers are both "number". */
function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/**
 * Every key path of a value (`$.data[].address`: array items merged under `[]`) with the JSON
 * types found there.
 */
function structure(value: unknown, path = '$', into = new Map<string, Set<string>>()) {
  const types = into.get(path) ?? new Set<string>();
  types.add(jsonType(value));
  into.set(path, types);
  if (Array.isArray(value)) for (const item of value) structure(item, `${path}[]`, into);
  else if (value && typeof value === 'object')
    for (const [key, v] of Object.entries(value)) structure(v, `${path}.${key}`, into);
  return into;
}

/** How the example's structure differs from the real answer's; empty: the same. */
function structureDiff(real: unknown, example: unknown): string[] {
  const [r, e] = [structure(real), structure(example)];
  const problems: string[] = [];
  for (const path of new Set([...r.keys(), ...e.keys()])) {
    const [rt, et] = [r.get(path), e.get(path)];
    if (!rt) problems.push(`${path}: only in the example`);
    else if (!et) problems.push(`${path}: only in the real answer`);
    else {
      const [a, b] = [[...rt].sort().join('|'), [...et].sort().join('|')];
      if (a !== b) problems.push(`${path}: real answer ${a}, example ${b}`);
    }
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------
// The appliance and its peers.

let db: TestDatabase;
let app: Awaited<ReturnType<typeof startTestAppliance>>;
let apikey: string;
let reviewer: Record<string, string>;
let doc: Json;
let validate: DocumentValidator;
const mail = new MailCatcher();
/** Receives the stream, live AML and travel rule webhooks, and the TRP peer's callbacks. */
const hooks = new Receiver();
const trpPeer = new Receiver();
let metadata: Server;

/** The directory VASP that inquires over TRP (its inbound token names it). */
const ORIGINATOR_VASP = {
  uid: '3d7f52c1-8a4e-4b0f-9c61-2f5e8d9a7b40',
  token: 'harbor-inbound-token-5c0d2b9e7a14f3e6c8d1',
};
/** The label every exposure here comes from. */
const LABEL_SOURCE = 'internal-watchlist';

/** What the chain holds for the requests: addresses and hashes made in beforeAll. */
const chain = {
  /** Tracked for live AML; received ETH and TUSD from the mixer. */
  tracked: '',
  /** The TUSD transfer from the mixer to `tracked`. */
  tokenTransfer: '',
  /** Holds an NFT (Test Apes #1042) whose metadata is on IPFS. */
  collector: '',
};

const api = (method: string, path: string, body?: object) =>
  call(app.baseUrl, method, `/v2${path}`, { headers: { apikey }, ...(body ? { body } : {}) });
const ops = (path: string, body: object = {}) =>
  call(app.baseUrl, 'POST', `/ops/travelrule${path}`, { headers: reviewer, body });
const withQuery = (path: string, query: Record<string, string>) =>
  `${path}?${new URLSearchParams(query).toString()}`;

function operationOf(method: string, path: string): Json {
  const op = doc.paths?.[path]?.[method];
  if (!op) throw new Error(`no operation ${method} ${path} in the document`);
  return op;
}
/** The example request's query: each parameter's example, as the query string carries it. */
function exampleQuery(method: string, path: string): Record<string, string> {
  return Object.fromEntries(
    (operationOf(method, path).parameters ?? [])
      .filter((p: Json) => p.in === 'query' && p.example !== undefined)
      .map((p: Json) => [p.name, String(p.example)]),
  );
}
function exampleBody(method: string, path: string): Json {
  const body = operationOf(method, path).requestBody?.content?.['application/json']?.example;
  if (!body) throw new Error(`no requestBody example for ${method} ${path}`);
  return body;
}

async function transactionId(ref: string): Promise<string> {
  const [row] = await db.sql<
    { id: string }[]
  >`select id from travelrule_transactions where transaction_ref = ${ref}`;
  return row!.id;
}

function thresholdConfig(): string {
  const file = join(mkdtempSync(join(tmpdir(), 'tollgate-cfg-')), 'config.json');
  writeFileSync(
    file,
    JSON.stringify({
      travel_rule: {
        thresholds: [
          { jurisdiction: 'DE', currency: 'EUR', amount: '1000', rates: { ETH: '3100' } },
          { jurisdiction: 'CH', currency: 'CHF', amount: '1000' },
        ],
      },
    }),
  );
  return file;
}

/** NFT metadata as a collection's IPFS folder serves it, behind the test's IPFS gateway. */
async function startMetadataServer(): Promise<string> {
  metadata = createServer((req, res) => {
    if (req.url !== '/ipfs/QmYwAPJzv5CZsnAzt8auVZRn1pfejD2o6KQAwkmXNXSPfY/1042.json')
      return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        name: 'Pixel Otter #1042',
        description: 'One of 10,000 pixel otters.',
        image: 'ipfs://QmYwAPJzv5CZsnAzt8auVZRn1pfejD2o6KQAwkmXNXSPfY/1042.png',
        external_url: 'https://otters.example/token/1042',
        attributes: [
          { trait_type: 'Background', value: 'Teal' },
          { trait_type: 'Level', value: 7 },
        ],
      }),
    );
  });
  await new Promise<void>((r) => metadata.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(metadata.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  db = await freshDatabase();
  await mail.start();
  await hooks.start();
  await trpPeer.start();
  const metadataUrl = await startMetadataServer();
  apikey = (await createApiKey(db.sql, 'backend')).apikey;
  const r = await createOperator(db.sql, 'rita.reviewer', 'reviewer');
  reviewer = {
    authorization: 'Basic ' + Buffer.from(`${r.login}:${r.password}`).toString('base64'),
  };
  app = await startTestAppliance(db.url, {
    TOLLGATE_SMTP_URL: mail.url,
    TOLLGATE_TRAVEL_RULE_VASP_NAME: 'Tollgate Test VASP',
    TOLLGATE_CONFIG: thresholdConfig(),
    TOLLGATE_NFT_IPFS_GATEWAY: `${metadataUrl}/ipfs/`,
  });
  const served = await api('GET', '/openapi.json');
  expect(served.status).toBe(200);
  doc = served.json;
  validate = documentValidator(doc);

  // The directory: the beneficiary VASP of the create_tx example (reached by e-mail) and a VASP
  // that sends inquiries over TRP.
  const beneficiaryVasp = exampleBody('post', '/travelrule/create_tx').beneficiary_vasp_id;
  await upsertVasp(
    db.sql,
    {
      uid: beneficiaryVasp,
      name: 'Northwind Digital Assets',
      legal_name: 'Northwind Digital Assets GmbH',
      country: 'DE',
      website: 'https://northwind.example',
      email: 'travelrule@northwind.example',
    },
    'cli',
  );
  await upsertVasp(
    db.sql,
    {
      uid: ORIGINATOR_VASP.uid,
      name: 'Harbor Exchange',
      website: 'https://harbor.example',
      trp_endpoint: trpPeer.url,
      inbound_token: ORIGINATOR_VASP.token,
    },
    'cli',
  );

  // The chain: a labelled mixer pays ETH and TUSD to a tracked address; a collector holds an NFT.
  const mixer = await fundedWallet('10');
  const collector = await fundedWallet('10');
  await db.sql`insert into labels (network, address, category, source)
    values ('evm', ${mixer.address.toLowerCase()}, 'mixer', ${LABEL_SOURCE})`;
  chain.tracked = randomAddress();
  chain.collector = collector.address;
  const tracking = await api('POST', '/liveaml/create', {
    address: chain.tracked,
    webhook: hooks.url,
  });
  expect(tracking.json).toEqual({ code: 0, message: 'OK', data: null });
  const { TestERC20, TestERC721 } = inject('contracts');
  const token = await collector.deploy(TestERC20);
  await collector.write(token, TestERC20.abi, 'mint', [mixer.address, 10_000_000_000n]);
  await mixer.send(chain.tracked as `0x${string}`, 5n * 10n ** 17n);
  const transfer = await mixer.write(token, TestERC20.abi, 'transfer', [
    chain.tracked,
    2_500_000_000n,
  ]);
  chain.tokenTransfer = transfer.transactionHash;
  const nft = await collector.deploy(TestERC721);
  await collector.write(nft, TestERC721.abi, 'setTokenURI', [
    1042n,
    'ipfs://QmYwAPJzv5CZsnAzt8auVZRn1pfejD2o6KQAwkmXNXSPfY/1042.json',
  ]);
  const minted = await collector.write(nft, TestERC721.abi, 'mint', [collector.address, 1042n]);
  await eventually(
    () => db.sql`select block_number from indexer_cursors where network = 'eth'`,
    (rows) => rows.length > 0 && BigInt(rows[0]!.block_number) >= minted.blockNumber,
    30_000,
  );
}, 120_000);

afterAll(async () => {
  await app?.stop();
  await mail.stop();
  await hooks.stop();
  await trpPeer.stop();
  await new Promise<void>((r) => metadata?.close(() => r()) ?? r());
  await db?.drop();
});

// ---------------------------------------------------------------------------------------------
// A real request per operation, in the order they run (a delete after its create, tx_status
// after the transaction went through its flow).

const REAL: [string, () => Promise<Reply>][] = [
  ['post /travelrule/webhook', () => api('POST', '/travelrule/webhook', { url: hooks.url })],
  ['get /travelrule/webhook', () => api('GET', '/travelrule/webhook')],
  [
    'post /stream/create',
    () => api('POST', '/stream/create', { address: randomAddress(), webhook: hooks.url }),
  ],
  [
    'get /stream/list',
    () => api('GET', withQuery('/stream/list', exampleQuery('get', '/stream/list'))),
  ],
  [
    'delete /stream/delete',
    async () => {
      const query = exampleQuery('delete', '/stream/delete');
      await api('POST', '/stream/create', { address: query.address!, webhook: hooks.url });
      return api('DELETE', withQuery('/stream/delete', query));
    },
  ],
  [
    'post /liveaml/create',
    () =>
      api('POST', '/liveaml/create', {
        address: randomAddress(),
        webhook: hooks.url,
        stream_webhook: hooks.url,
      }),
  ],
  [
    'get /liveaml/list',
    () => api('GET', withQuery('/liveaml/list', exampleQuery('get', '/liveaml/list'))),
  ],
  [
    'get /liveaml/events',
    () =>
      eventually(
        () => api('GET', withQuery('/liveaml/events', exampleQuery('get', '/liveaml/events'))),
        (reply) => reply.json?.data?.length >= 2,
        30_000,
      ),
  ],
  [
    'delete /liveaml/delete',
    async () => {
      const query = exampleQuery('delete', '/liveaml/delete');
      await api('POST', '/liveaml/create', { address: query.address!, webhook: hooks.url });
      return api('DELETE', withQuery('/liveaml/delete', query));
    },
  ],
  // The webhook operations: the delivery log and the endpoints once the live AML alerts above
  // were delivered (to `hooks`, which answers 200).
  [
    'get /webhook/deliveries',
    () =>
      eventually(
        () =>
          api('GET', withQuery('/webhook/deliveries', exampleQuery('get', '/webhook/deliveries'))),
        (reply) => reply.json?.data?.length >= 1,
        30_000,
      ),
  ],
  [
    'post /webhook/redeliver',
    async () => {
      const [ev] = await db.sql<{ id: string }[]>`
        select id from webhook_events where kind = 'liveaml' and status = 'delivered' limit 1`;
      return api('POST', '/webhook/redeliver', { event_id: `msg_${ev!.id}` });
    },
  ],
  [
    'post /webhook/recover',
    () => api('POST', '/webhook/recover', exampleBody('post', '/webhook/recover')),
  ],
  ['get /webhook/endpoints', () => api('GET', '/webhook/endpoints')],
  [
    'post /webhook/endpoints/enable',
    () => api('POST', '/webhook/endpoints/enable', { url: hooks.url }),
  ],
  [
    'post /webhook/test',
    async () => {
      const body = exampleBody('post', '/webhook/test');
      await api('POST', '/stream/create', { address: body.address, webhook: hooks.url });
      return api('POST', '/webhook/test', body);
    },
  ],
  ...(['stream', 'liveaml'] as const).flatMap((area) =>
    (['pause', 'resume'] as const).map((verb): [string, () => Promise<Reply>] => [
      `post /${area}/${verb}`,
      async () => {
        const body = exampleBody('post', `/${area}/${verb}`);
        const webhook = { webhook: hooks.url };
        await api('POST', `/${area}/create`, { address: body.address, ...webhook });
        return api('POST', `/${area}/${verb}`, body);
      },
    ]),
  ),
  [
    'post /webhook/rotate_secret',
    () => api('POST', '/webhook/rotate_secret', exampleBody('post', '/webhook/rotate_secret')),
  ],
  [
    'get /wallet/transactions',
    () =>
      api(
        'GET',
        withQuery('/wallet/transactions', { address: chain.tracked, page: '1', limit: '10' }),
      ),
  ],
  [
    'get /wallet/nfts',
    () =>
      eventually(
        () => api('GET', withQuery('/wallet/nfts', { address: chain.collector })),
        (reply) => reply.json?.data?.[0]?.metadata_status === 'ok',
        30_000,
      ),
  ],
  [
    'get /analyze/aml',
    () => api('GET', withQuery('/analyze/aml', { address: chain.tracked, network: 'eth' })),
  ],
  [
    'get /analyze/tx_detail',
    () =>
      api('GET', withQuery('/analyze/tx_detail', { hash: chain.tokenTransfer, network: 'eth' })),
  ],
  [
    'post /travelrule/check_tx',
    () => api('POST', '/travelrule/check_tx', exampleBody('post', '/travelrule/check_tx')),
  ],
  [
    'post /travelrule/create_tx',
    () => api('POST', '/travelrule/create_tx', exampleBody('post', '/travelrule/create_tx')),
  ],
  [
    'post /travelrule/send_tx_hash',
    async () => {
      // The create_tx example's withdrawal: an operator accepts it, the beneficiary VASP (e-mail)
      // approves the account create_tx named (tx_status shows it, beneficiary_address_differs
      // false), and the hash goes out.
      const body = exampleBody('post', '/travelrule/send_tx_hash');
      const id = await transactionId(body.transaction_ref);
      expect((await ops(`/transactions/${id}/accept`)).json.data).toEqual({
        status: 'OTHER_VASP_PENDING',
      });
      await mail.waitFor(1);
      const approved = exampleBody('post', '/travelrule/create_tx').beneficiary.accountNumber[0];
      expect(
        (await ops(`/transactions/${id}/answer`, { approved: true, address: approved })).json.data,
      ).toEqual({ status: 'WAITING_TX_HASH' });
      return api('POST', '/travelrule/send_tx_hash', body);
    },
  ],
  [
    'get /travelrule/tx_status',
    () =>
      eventually(
        () =>
          api(
            'GET',
            withQuery('/travelrule/tx_status', exampleQuery('get', '/travelrule/tx_status')),
          ),
        (reply) =>
          reply.json?.data?.messages?.length === 2 &&
          reply.json.data.messages.every((m: Json) => m.status === 'sent'),
        30_000,
      ),
  ],
  [
    'post /travelrule/travel_address',
    () =>
      api('POST', '/travelrule/travel_address', exampleBody('post', '/travelrule/travel_address')),
  ],
  [
    'get /travelrule/list_vasps',
    () =>
      api(
        'GET',
        withQuery('/travelrule/list_vasps', exampleQuery('get', '/travelrule/list_vasps')),
      ),
  ],
  [
    'post /travelrule/send_address',
    async () => {
      // A deposit: the directory VASP inquires over TRP (its request-identifier makes the
      // example's transaction_ref), an operator accepts, the deposit address goes back.
      const body = exampleBody('post', '/travelrule/send_address');
      const requestId = String(body.transaction_ref).replace(/^trp-/, '');
      const parties = travelBody('ignored');
      const inquiry = await trpSend(
        app.baseUrl,
        `/trp/v3/inquiries/${ORIGINATOR_VASP.token}`,
        inquiryText({
          asset: { slip0044: 60 },
          amount: '0.4',
          callback: `${trpPeer.url}/resolution`,
          originatorPersons: parties.originator.persons,
          originatorAccounts: parties.originator.accountNumber,
          beneficiaryPersons: parties.beneficiary.persons,
          originatorVasp: 'Harbor Exchange Ltd',
        }),
        { requestId },
      );
      expect(inquiry.status).toBe(200);
      const id = await transactionId(body.transaction_ref);
      expect((await ops(`/transactions/${id}/accept`)).json.data).toEqual({
        status: 'WAITING_ADDRESS_DATA',
      });
      return api('POST', '/travelrule/send_address', body);
    },
  ],
  [
    'post /travelrule/receive_tx_without_protocol',
    () =>
      api(
        'POST',
        '/travelrule/receive_tx_without_protocol',
        exampleBody('post', '/travelrule/receive_tx_without_protocol'),
      ),
  ],
  ['delete /travelrule/webhook', () => api('DELETE', '/travelrule/webhook')],
];

// ---------------------------------------------------------------------------------------------

const pointerToken = (s: string) => s.replaceAll('~', '~0').replaceAll('/', '~1');

/** Problems of an operation's example request against its documented request schemas. */
function requestExampleProblems(method: string, path: string): string[] {
  const op = operationOf(method, path);
  const problems: string[] = [];
  for (const [i, p] of ((op.parameters ?? []) as Json[]).entries()) {
    if (p.required && p.example === undefined) problems.push(`parameter ${p.name}: no example`);
    if (p.example === undefined) continue;
    const pointer = `/paths/${pointerToken(path)}/${method}/parameters/${i}/schema`;
    for (const e of validate.at(pointer, p.example)) problems.push(`parameter ${p.name}: ${e}`);
  }
  if (op.requestBody) {
    const example = op.requestBody.content?.['application/json']?.example;
    if (example === undefined) problems.push('requestBody: no example');
    else
      for (const e of validate.at(
        `/paths/${pointerToken(path)}/${method}/requestBody/content/application~1json/schema`,
        example,
      ))
        problems.push(`requestBody ${e}`);
  }
  return problems;
}

const exampleAnswer = (method: string, path: string): unknown =>
  operationOf(method, path).responses?.['200']?.content?.['application/json']?.example;

/** The real answer is a success with something in it (a list with items, an object with keys). */
function expectSuccess(reply: Reply, where: string) {
  expect(reply.status, `${where}: ${reply.text}`).toBe(200);
  expect(reply.json, where).toMatchObject({ code: 0, message: 'OK' });
  const data = reply.json.data;
  if (Array.isArray(data)) expect(data.length, `${where}: an empty list`).toBeGreaterThan(0);
  else if (data && typeof data === 'object')
    expect(Object.keys(data).length, `${where}: an empty object`).toBeGreaterThan(0);
}

describe('the OpenAPI document against the real appliance', () => {
  it('has a real request here for every operation of the document', () => {
    const documented = Object.entries(doc.paths as Record<string, Json>).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method} ${path}`),
    );
    expect(REAL.map(([op]) => op).sort()).toEqual(documented.sort());
  });

  it('documents 5000 on every operation, which any of them answers for a parameter given twice', async () => {
    for (const [path, item] of Object.entries(doc.paths as Record<string, Json>))
      for (const [method, op] of Object.entries(item as Record<string, Json>))
        expect(op.responses['400']?.description ?? '', `${method} ${path}`).toMatch(/\b5000\b/);
    // Found by an outside probe: GET /webhook/endpoints declared no 400, and answers one.
    const twice = await call(
      app.baseUrl,
      'GET',
      `/v2/webhook/endpoints?apikey=${apikey}&apikey=${apikey}`,
    );
    expect(twice.status).toBe(400);
    expect(twice.json.code).toBe(5000);
  });

  for (const [operation, request] of REAL) {
    const [method, path] = operation.split(' ') as [string, string];
    it(`${operation}: the real answer, the example answer and the example request fit the document`, async () => {
      const reply = await request();
      expectSuccess(reply, operation);
      const example = exampleAnswer(method, path);
      const problems = [
        ...requestExampleProblems(method, path).map((p) => `example request: ${p}`),
        ...validate.response(method, path, reply.json).map((p) => `real answer: ${p}`),
        ...(example === undefined
          ? ['example answer: none']
          : [
              ...validate.response(method, path, example).map((p) => `example answer: ${p}`),
              ...structureDiff(reply.json, example).map((p) => `structure: ${p}`),
            ]),
      ];
      // The real answer in the message: what an example to fix has to look like.
      expect(problems, `the real answer: ${JSON.stringify(reply.json, null, 1)}`).toEqual([]);
    });
  }

  it('the checks refuse a wrong example: a key dropped or added, a type changed', () => {
    const [method, path] = ['get', '/stream/list'];
    const example = structuredClone(exampleAnswer(method, path)) as Json;
    expect(structureDiff(example, example)).toEqual([]);
    expect(validate.response(method, path, example)).toEqual([]);
    const mutations: [string, (item: Json) => void][] = [
      ['has_stream dropped', (item) => delete item.has_stream],
      ['a key added', (item) => (item.label = 'cold wallet')],
      ['created_at null', (item) => (item.created_at = null)],
      ['has_stream a string', (item) => (item.has_stream = 'true')],
    ];
    for (const [what, mutate] of mutations) {
      const wrong = structuredClone(example);
      for (const item of wrong.data) mutate(item);
      expect(structureDiff(example, wrong), what).not.toEqual([]);
      expect(validate.response(method, path, wrong), what).not.toEqual([]);
    }
    // Where the schema allows both, the structure still tells null from a string: an example
    // whose nullable fields are all null is valid, and yet not what the appliance answers.
    const vasps = structuredClone(exampleAnswer('get', '/travelrule/list_vasps')) as Json;
    const allNull = structuredClone(vasps);
    for (const vasp of allNull.data) vasp.legal_name = null;
    expect(validate.response('get', '/travelrule/list_vasps', allNull)).toEqual([]);
    expect(structureDiff(vasps, allNull)).toEqual([
      '$.data[].legal_name: real answer null|string, example null',
    ]);
    // The example request too: a body without a required field, with an unknown one, a number.
    const body = exampleBody('post', '/stream/create');
    const pointer = `/paths/${pointerToken('/stream/create')}/post/requestBody/content/application~1json/schema`;
    expect(validate.at(pointer, body)).toEqual([]);
    const { webhook: _webhook, ...noWebhook } = body;
    expect(validate.at(pointer, noWebhook)).not.toEqual([]);
    expect(validate.at(pointer, { ...body, label: 'cold wallet' })).not.toEqual([]);
    expect(validate.at(pointer, { ...body, address: 42 })).not.toEqual([]);
    // A query parameter's example is the value in its schema's form: page 1, not "1".
    const page = (operationOf('get', '/stream/list').parameters as Json[]).findIndex(
      (p) => p.name === 'page',
    );
    const pagePointer = `/paths/${pointerToken('/stream/list')}/get/parameters/${page}/schema`;
    expect(validate.at(pagePointer, 1)).toEqual([]);
    expect(validate.at(pagePointer, '1')).not.toEqual([]);
  });
});
