-- NFT holdings and their metadata (GET /v2/wallet/nfts).

-- Holdings are summed from the NFT rows of evm_token_transfers, received minus sent per
-- (network, token, token_id). These partial covering indexes let that sum be read from the index
-- alone (no heap visit per transfer) and leave ERC-20 rows out, which are most of the table.
-- Built in the migration's transaction: on a large existing table this takes a while once.
create index evm_token_transfers_nft_to on evm_token_transfers (to_address, network)
  include (token, token_id, value, standard) where standard <> 'ERC20';
create index evm_token_transfers_nft_from on evm_token_transfers (from_address, network)
  include (token, token_id, value, standard) where standard <> 'ERC20';

-- One row per NFT whose metadata was asked for: the last good metadata, and how the last fetch
-- went. Written by the fetch_nft_metadata task; the API inserts the row (status 'pending') when
-- it enqueues the first fetch. A failed refresh keeps the last good metadata.
create table nft_metadata (
  network      text not null,
  token        text not null,                 -- contract address, lower-case
  token_id     numeric(78, 0) not null,
  standard     text not null check (standard in ('ERC721', 'ERC1155')),
  token_uri    text,                           -- as read at the last fetch ({id} substituted; first 4096 characters)
  metadata     jsonb,                          -- normalised: name, image, description, attributes|properties, ...
  status       text not null default 'pending' check (status in ('pending', 'ok', 'failed')),
  error        text,                           -- short, log-safe reason of the last failure
  requested_at timestamptz not null default now(),  -- last enqueue
  fetched_at   timestamptz,                    -- end of the last fetch, good or failed
  primary key (network, token, token_id)
);
