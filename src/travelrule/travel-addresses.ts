import { validateAddress } from '../chains/address/index.js';
import type { Sql } from '../db/index.js';
import { callbackToken, TRAVEL_ADDRESS_INFO, transactionOfToken } from './callback-token.js';
import type { Keyring } from './crypto.js';
import { TravelRuleError } from './errors.js';
import { findRetiredToken } from './retired-tokens.js';
import { encodeTravelAddress } from './trp/travel-address.js';

/**
 * Travel Addresses for this VASP's own customers: one per (API key, network, deposit address).
 * It encodes our inquiry URL for that customer (TRP 3.1 `ta…`); an inquiry that arrives on it
 * belongs to that key, and its beneficiary is that address. The URL's token is the row's id
 * with an HMAC (callback-token.ts, under its own derived key): asking again gives the same
 * Travel Address, and a copy of the database cannot make one.
 */

export interface IssuedTravelAddress {
  travel_address: string;
  /** The inquiry URL it encodes (https). */
  url: string;
  network: string;
  address: string;
}

export interface TravelAddressTarget {
  id: string;
  api_key_id: string;
  network: string;
  address: string;
}

export async function issueTravelAddress(
  deps: { sql: Sql; keyring: Keyring; trpUrl: string },
  apiKeyId: string,
  network: string,
  address: string,
): Promise<IssuedTravelAddress> {
  const valid = validateAddress(network, address);
  if (!valid.ok)
    throw new TravelRuleError('invalid_address', `address: not a valid ${network} address`);
  const [row] = await deps.sql<{ id: string }[]>`
    insert into travel_addresses (api_key_id, network, address)
    values (${apiKeyId}, ${network}, ${valid.address})
    on conflict (api_key_id, network, address) do update set network = excluded.network
    returning id`;
  const url = `${deps.trpUrl}/trp/v3/inquiries/${callbackToken(deps.keyring, row!.id, TRAVEL_ADDRESS_INFO)}`;
  if (!url.startsWith('https://'))
    throw new TravelRuleError(
      'unavailable',
      'the TRP public URL (travel_rule.trp_public_url, else public_url) must be https for Travel Addresses',
    );
  return { travel_address: encodeTravelAddress(url), url, network, address: valid.address };
}

/** The customer a Travel Address's inquiry URL token names; undefined when it names none. */
export async function findTravelAddress(
  sql: Sql,
  keyring: Keyring,
  token: string,
): Promise<TravelAddressTarget | undefined> {
  // Made with a configured data key, or with one since removed (its hash recorded by
  // `tollgate data-key rotate`: retired-tokens.ts).
  const id =
    transactionOfToken(keyring, token, TRAVEL_ADDRESS_INFO) ??
    (await findRetiredToken(sql, 'travel_address', token));
  if (id === undefined) return undefined;
  const [row] = await sql<TravelAddressTarget[]>`
    select t.id, t.api_key_id::text, t.network, t.address from travel_addresses t
    join api_keys k on k.id = t.api_key_id and k.revoked_at is null
    where t.id = ${id}`;
  return row;
}
