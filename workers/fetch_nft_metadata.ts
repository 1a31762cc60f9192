import type { Task } from 'graphile-worker';
import { JOBS } from '../src/db/jobs.js';
import { fetchNftMetadata, type NftMetadataDeps } from '../src/wallet/index.js';

/** graphile-worker task `fetch_nft_metadata`: reads one token's URI and fetches its metadata. */
export function fetchNftMetadataTask(deps: NftMetadataDeps): Task {
  return async (payload, helpers) => {
    const key = JOBS.fetch_nft_metadata.payload.parse(payload);
    await fetchNftMetadata(
      deps,
      key,
      {
        id: helpers.job.id,
        attempts: helpers.job.attempts,
        max_attempts: helpers.job.max_attempts,
      },
      helpers.abortSignal,
    );
  };
}
