import { describe, expect, it } from 'vitest';
import { summarizeWebhook } from '../../src/devchain/webhook-summary.js';

/** Bodies in the spec's shapes (spec/api-spec.md, Webhooks), written from the spec's tables. */
describe('the demo receiver says what each webhook is', () => {
  it('an EVM stream webhook, with its token transfers, a retraction and a replay', () => {
    const evm = {
      blockNumber: 7,
      chainId: 1,
      tx: { from: '0xa', to: '0xb', hash: '0xh', formattedValue: 1.5 },
      confirmed: false,
      erc20Transfers: [{}],
      erc721Transfers: [],
      erc1155Transfers: [],
      contract_type: 'ERC20',
      network: 'eth',
    };
    expect(summarizeWebhook(JSON.stringify(evm))).toBe(
      'eth unconfirmed tx 0xh 0xa -> 0xb value 1.5 (1 token transfer)',
    );
    expect(
      summarizeWebhook(JSON.stringify({ ...evm, confirmed: false, removed: true, replay: true })),
    ).toMatch(/\[RETRACTED, replay\]$/);
  });

  it('a Bitcoin stream webhook', () => {
    const btc = {
      hash: 'ab',
      hex: '00',
      fee: 141,
      inputs: [],
      outputs: [],
      addresses: ['bc1q'],
      mapped: { inputs: [], outputs: [{ address: 'bc1q', value: 5000 }] },
      confirmed: true,
      network: 'bitcoin',
    };
    expect(summarizeWebhook(JSON.stringify(btc))).toBe(
      'bitcoin confirmed tx ab fee 141 -> bc1q 5000',
    );
  });

  it('a live AML webhook (it printed "undefined" before)', () => {
    const aml = {
      address: '0xa',
      score: 100,
      tags: { sanctioned: true, mixer: false },
      hash: '0xh',
      block_number: 9,
      hash_tags: { sanctioned: true, mixer: false },
      created_at: '2026-11-25T00:00:00Z',
    };
    const line = summarizeWebhook(JSON.stringify(aml));
    expect(line).toBe('live AML 0xa score 100 tx 0xh block 9: sanctioned');
    expect(line).not.toContain('undefined');
  });

  it('a travel rule webhook', () => {
    expect(
      summarizeWebhook(JSON.stringify({ transaction_ref: 'w-1', status: 'OTHER_VASP_REJECTED' })),
    ).toBe('travel rule w-1: OTHER_VASP_REJECTED');
  });

  it('anything else as it came', () => {
    for (const body of ['not json', '[1,2]', 'null', '{"x":1}'])
      expect(summarizeWebhook(body)).toBe(body);
  });
});
