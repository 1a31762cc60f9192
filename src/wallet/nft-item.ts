import { z } from 'zod';
import { browserUrl } from './nft-uri.js';
import { EMPTY_METADATA, type NftMetadata } from './nft-metadata.js';
import { reportedNetwork } from './network-name.js';

/**
 * The spec's NFT item and how a holding becomes one. Types never change with what is known:
 * strings are '' when unknown (no metadata yet, a contract without name()), `media` is [] without
 * an image, `metadata` always has name, image, description and attributes or properties.
 */

const Attribute = z.object({ trait_type: z.string(), value: z.string() });

export const NftMetadataSchema = z
  .object({
    name: z.string(),
    image: z.string().meta({
      description: 'URI as the token gives it (may be ipfs:// or data:); "" when unknown.',
    }),
    description: z.string(),
    attributes: z.array(Attribute).optional().meta({
      description:
        'Present when the token has attributes, or has neither attributes nor properties ([]). Values as strings.',
    }),
    properties: z
      .record(z.string(), z.unknown())
      .optional()
      .meta({ description: 'Present when the token has a properties object.' }),
    external_url: z.string().optional(),
    animation_url: z.string().optional(),
  })
  .meta({ id: 'NftMetadata' });

export const NftItem = z
  .object({
    name: z.string().meta({
      description: 'metadata.name; "" until the metadata is fetched, or when it cannot be.',
    }),
    image: z
      .string()
      .meta({ description: 'metadata.image (may be ipfs:// or data:); "" when unknown.' }),
    media: z
      .array(
        z.object({
          raw: z.string().meta({ description: 'The image URI as the metadata gives it.' }),
          gateway: z.string().meta({
            description:
              'http(s) URL a browser can load (ipfs:// through the configured gateway; data: passed through); "" for other schemes.',
          }),
        }),
      )
      .meta({ description: 'One entry for the image; [] when there is none.' }),
    chainId: z.int(),
    network: z
      .string()
      .meta({ description: 'Network symbol; Polygon items say "matic" as the spec shows.' }),
    metadata: NftMetadataSchema,
    token_id: z.string().meta({ description: 'Decimal digits.' }),
    token_type: z.enum(['ERC721', 'ERC1155']),
    description: z.string(),
    contract_name: z
      .string()
      .meta({ description: 'name() of the contract; "" when it has none or it was not read yet.' }),
    contract_symbol: z.string(),
    contract_address: z.string().meta({ description: 'Lower-case 0x address.' }),
    amount: z.string().meta({
      description:
        'Not in the spec: how many of this token the wallet holds, in decimal digits: "1" for an ERC721, the balance for an ERC1155 (received less sent over the indexed history).',
    }),
    metadata_status: z.enum(['ok', 'pending', 'failed']).meta({
      description:
        'Not in the spec. ok: the metadata fields hold the fetched metadata; pending: a fetch is on its way (the fields are empty for now: ask again); failed: it could not be fetched (tried again later).',
    }),
  })
  .meta({ id: 'NftItem' });

export type NftItem = z.infer<typeof NftItem>;

/** One NFT the wallet holds, with what is stored about it. */
export interface Holding {
  network: string;
  chain_id: string;
  token: string;
  token_id: string;
  standard: 'ERC721' | 'ERC1155';
  /** Decimal digits: "1" for an ERC721, the balance for an ERC1155. */
  amount: string;
  contract_name: string | null;
  contract_symbol: string | null;
  metadata: NftMetadata | null;
  metadata_status: 'ok' | 'pending' | 'failed';
  /** No fetch yet, or the last one failed (or never finished) long enough ago. */
  fetch_due: boolean;
}

export function toNftItem(h: Holding, ipfsGateway: string): NftItem {
  const metadata: NftMetadata = h.metadata ?? { ...EMPTY_METADATA, attributes: [] };
  return {
    name: metadata.name,
    image: metadata.image,
    media: metadata.image
      ? [{ raw: metadata.image, gateway: browserUrl(metadata.image, ipfsGateway) }]
      : [],
    chainId: Number(h.chain_id),
    network: reportedNetwork(h.network),
    metadata,
    token_id: h.token_id,
    token_type: h.standard,
    description: metadata.description,
    contract_name: h.contract_name ?? '',
    contract_symbol: h.contract_symbol ?? '',
    contract_address: h.token,
    amount: h.amount,
    metadata_status: h.metadata_status,
  };
}
