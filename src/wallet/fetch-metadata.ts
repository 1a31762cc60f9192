import { parseAbi, type Hex, type PublicClient } from 'viem';
import type { Sql } from '../db/index.js';
import { tokenMetadata } from '../chains/evm/tokens.js';
import { RetryableError, describeError, PermanentError } from '../errors.js';
import { log } from '../log.js';
import type { AllowList } from '../net/ssrf.js';
import { FetchError, guardedGet } from '../net/fetch-url.js';
import { MetadataFormatError, normalizeMetadata, type NftMetadata } from './nft-metadata.js';
import { recordFetch, type FetchOutcome, type NftKey } from './nft-store.js';
import { DataUriError, decodeDataUri, metadataSource, substituteErc1155Id } from './nft-uri.js';
import { isTransportError } from '../chains/evm/transport.js';
import type { EvmClientFor } from '../chains/evm/client.js';

export interface NftMetadataDeps {
  sql: Sql;
  /**
   * The node client of a network, to read tokenURI/uri and the contract's name and symbol; with
   * the job's signal, one whose calls the signal ends (src/chains/evm/client.ts, evmClientSource).
   */
  evmClientFor: EvmClientFor;
  /** Private ranges metadata URLs may point into (nft_metadata_allow_cidrs; not the webhook list). */
  metadataAllow: AllowList;
  /** Base URL that ipfs://<cid>/<path> is fetched through (TOLLGATE_NFT_IPFS_GATEWAY). */
  nftIpfsGateway: string;
}

export const METADATA_TIMEOUT_MS = 10_000;
export const METADATA_MAX_BYTES = 1024 * 1024;

const uriAbi = parseAbi([
  'function tokenURI(uint256 tokenId) view returns (string)',
  'function uri(uint256 id) view returns (string)',
]);

/** The token's metadata cannot be had from what the contract says: recorded, not retried now. */
class Unavailable extends PermanentError {}

/** Outcomes of the fetch itself, recorded as 'failed' (a RetryableError here is the last attempt). */
function isFetchFailure(err: unknown): err is Error {
  return [Unavailable, FetchError, DataUriError, MetadataFormatError, RetryableError].some(
    (type) => err instanceof type,
  );
}

/** tokenURI(id) of an ERC-721, uri(id) of an ERC-1155 with `{id}` substituted. */
async function readTokenUri(client: PublicClient, key: NftKey): Promise<string> {
  const id = BigInt(key.token_id);
  const functionName = key.standard === 'ERC721' ? 'tokenURI' : 'uri';
  let raw: string;
  try {
    raw = await client.readContract({
      address: key.token as Hex,
      abi: uriAbi,
      functionName,
      args: [id],
    });
  } catch (err) {
    if (isTransportError(err))
      throw new RetryableError(`reading ${functionName} failed`, { cause: err });
    throw new Unavailable(`${functionName}(id) reverted or is missing`);
  }
  const uri = raw.replace(/\u0000/g, '').trim();
  if (!uri) throw new Unavailable(`${functionName}(id) is empty`);
  return key.standard === 'ERC1155' ? substituteErc1155Id(uri, id) : uri;
}

async function loadDocument(
  deps: NftMetadataDeps,
  uri: string,
  signal: AbortSignal | undefined,
): Promise<{ metadata: NftMetadata; source: string; host?: string }> {
  const source = metadataSource(uri, deps.nftIpfsGateway);
  if (source.kind === 'unsupported') throw new Unavailable(source.reason);
  if (source.kind === 'data')
    return {
      metadata: normalizeMetadata(decodeDataUri(source.uri, METADATA_MAX_BYTES)),
      source: 'data',
    };
  const body = await guardedGet(source.url, {
    allow: deps.metadataAllow,
    timeoutMs: METADATA_TIMEOUT_MS,
    maxBytes: METADATA_MAX_BYTES,
    signal,
  });
  return {
    metadata: normalizeMetadata(body.toString('utf8')),
    source: 'http',
    host: new URL(source.url).host,
  };
}

/**
 * One fetch of one token's metadata. The contract's name and symbol are read once into
 * evm_tokens; the token URI is read again every time (it may change, e.g. at a reveal). Every
 * outcome of the fetch itself (bad URI, forbidden address, HTTP error, timeout, not JSON) is
 * recorded as 'failed' and not retried by the queue: the API asks again after a while, or on
 * refresh=true. Only an unreachable RPC node is retried by graphile-worker, until the last attempt.
 * `signal` (the job's: graphile-worker aborts it 5 s into a worker's stop) gives up the node call
 * or the fetch still waiting: a stop is not an outcome, nothing is recorded, the job runs again.
 */
export async function fetchNftMetadata(
  deps: NftMetadataDeps,
  key: NftKey,
  job: { id: string; attempts: number; max_attempts: number },
  signal?: AbortSignal,
): Promise<void> {
  const started = performance.now();
  const ctx = { job_id: job.id, network: key.network, token: key.token, token_id: key.token_id };
  let tokenUri: string | null = null;
  let outcome: FetchOutcome;
  let detail: { source?: string; host?: string } = {};
  try {
    const client = deps.evmClientFor(key.network, signal);
    if (!client) throw new RetryableError(`no RPC client for ${key.network} in this worker`);
    await tokenMetadata(deps.sql, client, key.network, [key.token]);
    tokenUri = await readTokenUri(client, key);
    const loaded = await loadDocument(deps, tokenUri, signal);
    detail = { source: loaded.source, ...(loaded.host ? { host: loaded.host } : {}) };
    outcome = { status: 'ok', tokenUri, metadata: loaded.metadata };
  } catch (err) {
    if (signal?.aborted) {
      log.info(ctx, 'nft metadata: given up, the worker is stopping; the job runs again');
      throw err;
    }
    if (err instanceof RetryableError && job.attempts < job.max_attempts) {
      log.warn(
        { ...ctx, error: describeError(err), attempt: job.attempts },
        'nft metadata: RPC failed; will retry',
      );
      throw err;
    }
    if (!isFetchFailure(err)) throw err; // the database, a bug: let the queue retry
    outcome = { status: 'failed', tokenUri, error: err.message.split('\n')[0]! };
  }
  try {
    await recordFetch(deps.sql, key, outcome);
  } catch (err) {
    // A document Postgres refuses as data (class 22: a value jsonb cannot hold) is the
    // document's failure, not the database's: recorded as such, or the token stays "pending"
    // through every retry. Anything else (the database away) is the queue's to retry.
    const code = (err as { code?: unknown }).code;
    if (outcome.status !== 'ok' || typeof code !== 'string' || !code.startsWith('22')) throw err;
    outcome = { status: 'failed', tokenUri, error: 'the metadata could not be stored' };
    await recordFetch(deps.sql, key, outcome);
  }
  const duration_ms = Math.round(performance.now() - started);
  if (outcome.status === 'ok') log.info({ ...ctx, ...detail, duration_ms }, 'nft metadata fetched');
  else log.info({ ...ctx, error: outcome.error, duration_ms }, 'nft metadata not available');
}
