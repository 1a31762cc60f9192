import { HttpRequestError, RpcRequestError, TimeoutError } from 'viem';
import { expect, it } from 'vitest';
import { describeError } from '../../src/errors.js';
import { buildFailure } from '../../src/webhooks/deliver.js';

// A node URL whose path holds its API key (as Infura's and many providers' do).
const url = 'https://user:basic-secret@mainnet.node.example/v3/key-in-path-7f3a';
const body = { method: 'eth_getBlockByNumber', params: ['0x10', true] };

it("says what failed at a node without the node's URL or the request body", () => {
  const errors = [
    new HttpRequestError({ url, body, details: 'fetch failed' }),
    new HttpRequestError({ url, body, status: 401, details: 'Unauthorized' }),
    // As Node's fetch fails: "fetch failed", the reason in its cause.
    new HttpRequestError({
      url,
      body,
      cause: new TypeError('fetch failed', {
        cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }),
      }),
    }),
    new TimeoutError({ url, body }),
    new RpcRequestError({ url, body, error: { code: -32000, message: 'header not found' } }),
  ];
  const described = errors.map(describeError);
  for (const text of described) {
    expect(text).not.toContain('key-in-path');
    expect(text).not.toContain('basic-secret');
    expect(text).not.toContain('mainnet.node.example');
    expect(text).not.toContain('eth_getBlockByNumber');
    expect(text).not.toContain('\n');
  }
  expect(described).toEqual([
    'HttpRequestError: HTTP request failed. (fetch failed)',
    'HttpRequestError: HTTP request failed. (HTTP 401: Unauthorized)',
    'HttpRequestError: HTTP request failed. (fetch failed: other side closed (UND_ERR_SOCKET))',
    'TimeoutError: The request took too long to respond. (The request timed out.)',
    'RpcRequestError: RPC Request failed. (header not found)',
  ]);
  // What viem itself would have said: the URL's path and the body are in its message.
  expect(errors[0]!.message).toContain('key-in-path');
});

it('describes other errors by name, message and code', () => {
  const refused = Object.assign(new Error('connect ECONNREFUSED 10.0.0.3:8545'), {
    code: 'ECONNREFUSED',
  });
  expect(describeError(refused)).toBe('Error: connect ECONNREFUSED 10.0.0.3:8545 (ECONNREFUSED)');
  expect(describeError('plain')).toBe('plain');
});

it("takes a body not built for the appliance's database for no attempt, and says so without the database's address", () => {
  const down = Object.assign(new Error('connect ECONNREFUSED 10.0.0.3:5432'), {
    code: 'ECONNREFUSED',
  });
  const built = buildFailure(down);
  expect(built).toEqual({
    unbuilt: "not sent: Tollgate's database could not serve the body (database unreachable)",
  });
  expect(JSON.stringify(built)).not.toContain('10.0.0.3');
  const busy = Object.assign(new Error('too many clients'), { code: '53300' });
  expect(buildFailure(busy)).toEqual({
    unbuilt: expect.stringMatching(/no free database connection/),
  });
  // Anything else is a failed attempt, described as it is.
  expect(buildFailure(new Error('token contract reverted'))).toEqual({
    retry: 'Error: token contract reverted',
  });
});
