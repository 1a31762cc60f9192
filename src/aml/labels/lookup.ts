import { networkInfo } from '../../config/networks.js';
import type { Sql } from '../../db/index.js';
import { EVM_SCOPE, type LabelCategory } from './types.js';

export interface StoredLabel {
  network: string;
  address: string;
  category: LabelCategory;
  source: string;
  name: string;
  lists: string[];
}

/**
 * The labels of an address on a network: its own rows, and for an EVM network also the
 * family-wide 'evm' rows. `address` is the stored form (validateAddress's output).
 */
export async function findLabels(
  sql: Sql,
  network: string,
  address: string,
): Promise<StoredLabel[]> {
  const networks = networkInfo(network)?.family === 'evm' ? [network, EVM_SCOPE] : [network];
  return [
    ...(await sql<StoredLabel[]>`
    select network, address, category, source, name, lists from labels
    where address = ${address} and network = any(${networks}::text[])
    order by category, source, network`),
  ];
}
