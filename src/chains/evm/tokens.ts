import { erc20Abi, type PublicClient } from 'viem';
import type { Sql } from '../../db/index.js';
import { RetryableError } from '../../errors.js';
import { isTransportError } from './transport.js';

export interface TokenMeta {
  name: string | null;
  symbol: string | null;
  decimals: number | null;
}

const nameSymbolAbi = erc20Abi.filter(
  (f) => f.type === 'function' && ['name', 'symbol', 'decimals'].includes(f.name),
);

/** Token name, symbol and decimals: read from the contract once, then from evm_tokens. */
export async function tokenMetadata(
  sql: Sql,
  client: PublicClient,
  network: string,
  addresses: readonly string[],
): Promise<Map<string, TokenMeta>> {
  const out = new Map<string, TokenMeta>();
  if (addresses.length === 0) return out;
  const unique = [...new Set(addresses)];
  const cached = await sql<
    { address: string; name: string | null; symbol: string | null; decimals: number | null }[]
  >`
    select address, name, symbol, decimals from evm_tokens where network = ${network} and address = any(${unique})`;
  for (const row of cached)
    out.set(row.address, { name: row.name, symbol: row.symbol, decimals: row.decimals });
  const missing = unique.filter((a) => !out.has(a));
  for (const address of missing) {
    const read = async (fn: 'name' | 'symbol' | 'decimals') => {
      try {
        return await client.readContract({
          address: address as `0x${string}`,
          abi: nameSymbolAbi,
          functionName: fn,
        });
      } catch (err) {
        // A transport failure must not be cached as "no name": retry the whole delivery later.
        if (isTransportError(err))
          throw new RetryableError(`reading token ${fn} failed`, { cause: err });
        return null; // not every token has every field (ERC-721 has no decimals)
      }
    };
    const [name, symbol, decimals] = await Promise.all([
      read('name'),
      read('symbol'),
      read('decimals'),
    ]);
    const meta: TokenMeta = {
      name: typeof name === 'string' ? name.replace(/\u0000/g, '').slice(0, 200) : null,
      symbol: typeof symbol === 'string' ? symbol.replace(/\u0000/g, '').slice(0, 50) : null,
      decimals: typeof decimals === 'number' && decimals <= 255 ? decimals : null,
    };
    await sql`insert into evm_tokens (network, address, name, symbol, decimals)
      values (${network}, ${address}, ${meta.name}, ${meta.symbol}, ${meta.decimals})
      on conflict (network, address) do nothing`;
    out.set(address, meta);
  }
  return out;
}
