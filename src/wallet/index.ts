/**
 * Wallet data's face: a wallet's transactions and NFTs, and the NFT metadata fetches. Nothing
 * outside this folder imports a file in it but this one.
 */
export { fetchNftMetadata, type NftMetadataDeps } from './fetch-metadata.js';
export { NftItem, toNftItem } from './nft-item.js';
export {
  listNftHoldings,
  REFETCH_FAILED_AFTER,
  requestMetadataFetches,
  waitForMetadata,
} from './nft-store.js';
export { walletTransactions } from './transactions.js';
export { PageCache } from './page-cache.js';
export { PageAnchors } from './page-anchors.js';
export { historyHeader, historyReach, type HistoryReach } from './history.js';
