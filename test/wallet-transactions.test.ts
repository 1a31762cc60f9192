import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { keccak256 } from 'viem';
import { createApiKey } from '../src/keys/keys.js';
import { ensureNetworkPartitions } from '../src/indexer/evm/store.js';
import { startTestAppliance } from './helpers/appliance.js';
import { freshDatabase, type TestDatabase } from './helpers/db.js';
import { call } from './helpers/http.js';
import { fundedWallet, randomAddress } from './helpers/chain.js';
import { eventually } from './helpers/eventually.js';

let db: TestDatabase;
let app: Awaited<ReturnType<typeof startTestAppliance>>;
let apikey: string;

beforeAll(async () => {
  db = await freshDatabase();
  app = await startTestAppliance(db.url);
  apikey = (await createApiKey(db.sql, 'wallet')).apikey;
});
afterAll(async () => {
  await app?.stop();
  await db?.drop();
});

const get = (path: string) => call(app.baseUrl, 'GET', path, { headers: { apikey } });

describe('GET /v2/wallet/transactions', () => {
  it('lists a wallet’s transactions newest first with the spec’s fields and logs', async () => {
    const w = await fundedWallet('10');
    const token = await w.deploy(inject('contracts').TestERC20);
    const abi = inject('contracts').TestERC20.abi;
    await w.write(token, abi, 'mint', [w.address, 1000n]);
    const to = randomAddress();
    const eth = await w.send(to, 123n);
    const erc20 = await w.write(token, abi, 'transfer', [to, 7n]);
    await eventually(
      () => db.sql`select block_number from indexer_cursors where network = 'eth'`,
      (r) => BigInt(r[0]!.block_number) >= erc20.blockNumber,
    );

    const res = await get(`/v2/wallet/transactions?address=${to}&page=1&limit=10`);
    expect(res.json).toMatchObject({ code: 0, message: 'OK', page_count: 1 });
    expect(res.json.data.map((t: any) => t.hash)).toEqual([
      erc20.transactionHash,
      eth.transactionHash,
    ]);
    const [tokenTx, ethTx] = res.json.data;
    expect(ethTx).toEqual({
      id: `eth:${eth.transactionHash}`,
      to_address: to.toLowerCase(),
      from_address: w.address.toLowerCase(),
      hash: eth.transactionHash,
      gas: expect.stringMatching(/^\d+$/),
      gas_price: eth.effectiveGasPrice.toString(),
      timestamp: expect.stringMatching(/^\d+$/),
      value: '123',
      block_number: eth.blockNumber.toString(),
      logs: [],
      network: 'eth',
      status: 1,
    });
    expect(tokenTx.to_address).toBe(token.toLowerCase());
    expect(tokenTx.logs).toEqual([
      {
        address: token.toLowerCase(),
        topics: expect.arrayContaining([expect.stringMatching(/^0xddf252ad/)]),
        data: expect.stringMatching(/^0x0+7$/),
      },
    ]);
  });

  it('says which transactions reverted (status 0: the value listed did not move)', async () => {
    const w = await fundedWallet('10');
    const token = await w.deploy(inject('contracts').TestERC20);
    // The token takes no ether: the transfer reverts (a gas limit given, so nothing estimates it).
    // Hardhat mines it and answers the send with an error, so the hash is the signed bytes'.
    const signed = await w.wallet.signTransaction(
      await w.wallet.prepareTransactionRequest({ to: token, value: 5n, gas: 100_000n }),
    );
    const hash = keccak256(signed);
    await w.pub.sendRawTransaction({ serializedTransaction: signed }).catch(() => undefined);
    const reverted = await w.pub.waitForTransactionReceipt({ hash });
    expect(reverted.status).toBe('reverted');
    await eventually(
      () => db.sql`select block_number from indexer_cursors where network = 'eth'`,
      (r) => BigInt(r[0]!.block_number) >= reverted.blockNumber,
    );
    const res = await get(`/v2/wallet/transactions?address=${w.address}&page=1&limit=10`);
    expect(res.json.data.map((t: any) => [t.hash, t.value, t.status])).toEqual([
      [hash, '5', 0],
      [expect.any(String), '0', 1], // the token's creation
    ]);
  });

  it('answers a page asked again the same until the wallet acts, then with its new transaction', async () => {
    // The API process keeps the pages it answered (src/wallet/page-cache.ts): a kept page must
    // never outlive the history it was read from.
    const w = await fundedWallet('1');
    const to = randomAddress();
    const indexed = (block: bigint) =>
      eventually(
        () => db.sql`select block_number from indexer_cursors where network = 'eth'`,
        (r) => BigInt(r[0]!.block_number) >= block,
      );
    const first = await w.send(to, 1n);
    await indexed(first.blockNumber);
    const path = `/v2/wallet/transactions?address=${to}&page=1&limit=10`;
    const a = await get(path);
    expect(a.json.data.map((t: any) => t.hash)).toEqual([first.transactionHash]);
    expect((await get(path)).text).toBe(a.text);
    const second = await w.send(to, 2n);
    await indexed(second.blockNumber);
    const c = await get(path);
    expect(c.json.data.map((t: any) => t.hash)).toEqual([
      second.transactionHash,
      first.transactionHash,
    ]);
  });

  it('validates its parameters as the spec says', async () => {
    const a = randomAddress();
    expect((await get(`/v2/wallet/transactions?address=0x12&page=1&limit=10`)).json).toMatchObject({
      code: 5002,
    });
    expect((await get(`/v2/wallet/transactions?address=${a}&limit=10`)).json).toMatchObject({
      code: 5000,
      message: 'page: is required',
    });
    expect((await get(`/v2/wallet/transactions?address=${a}&page=1`)).json).toMatchObject({
      code: 5000,
    });
    expect((await get(`/v2/wallet/transactions?address=${a}&page=1&limit=101`)).json).toMatchObject(
      { code: 5000 },
    );
    expect((await get(`/v2/wallet/transactions?address=${a}&page=0&limit=1`)).json).toMatchObject({
      code: 5000,
    });
    expect((await get(`/v2/wallet/transactions?address=${a}&page=1&limit=5`)).json).toEqual({
      code: 0,
      message: 'OK',
      data: [],
      page_count: 0,
    });
  });

  it('pages 100,000 transactions across networks in order, through the history index', async () => {
    const who = randomAddress().toLowerCase();
    await ensureNetworkPartitions(db.sql, 'polygon');
    // Synthetic history: 50,000 rows on each of two networks, interleaved in time.
    for (const [network, offset] of [
      ['eth', 0],
      ['polygon', 1],
    ] as const) {
      await db.sql`insert into evm_transactions (network, hash, block_number, block_hash, tx_index, from_address, to_address, value, gas, nonce, input)
        select ${network}, '0x' || lpad(to_hex(g * 2 + ${offset}), 64, '0'), 10000000 + g, '0xb', 0, ${who}, '0x01', g, 21000, g, '0x'
        from generate_series(1, 50000) g`;
      await db.sql`insert into evm_tx_addresses (network, address, block_number, tx_hash, timestamp)
        select ${network}, ${who}, 10000000 + g, '0x' || lpad(to_hex(g * 2 + ${offset}), 64, '0'), 1700000000 + g * 2 + ${offset}
        from generate_series(1, 50000) g`;
    }
    await db.sql`analyze evm_tx_addresses`;

    const first = await get(`/v2/wallet/transactions?address=${who}&page=1&limit=100`);
    expect(first.json.page_count).toBe(1000);
    expect(first.json.data).toHaveLength(100);
    expect(first.json.data[0]).toMatchObject({
      network: 'matic',
      value: '50000',
      block_number: '10050000',
    });
    expect(first.json.data[1]).toMatchObject({ network: 'eth', value: '50000' });
    const times = first.json.data.map((t: any) => Number(t.timestamp));
    expect(times).toEqual([...times].sort((x, y) => y - x));
    const last = await get(`/v2/wallet/transactions?address=${who}&page=1000&limit=100`);
    expect(last.json.data.at(-1)).toMatchObject({ network: 'eth', value: '1' });

    // The page comes from the index in order: no sort of the address's whole history.
    const plan =
      await db.sql.unsafe(`explain select network, tx_hash from evm_tx_addresses where address = '${who}'
      order by timestamp desc, network, block_number desc, tx_hash limit 100`);
    const text = plan.map((r: any) => r['QUERY PLAN']).join('\n');
    expect(text).toMatch(
      /Index (Only )?Scan using evm_tx_addresses_\w+_address_timestamp|Index (Only )?Scan using \w*history/,
    );
    expect(text).not.toMatch(/Seq Scan/);
    expect(text).not.toMatch(/^\s*->\s*Sort/m);
  });
});
