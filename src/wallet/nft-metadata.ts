import { PermanentError } from '../errors.js';
import { storableText } from '../json.js';
/**
 * Normalises a token's metadata JSON (ERC-721 / ERC-1155 metadata, OpenSea conventions) into the
 * spec's `metadata` object, with stable types: `name`, `image`, `description` always strings;
 * exactly the spec's `attributes` (array of {trait_type, value}, both strings) and/or
 * `properties` (free object); `attributes: []` when the token has neither; `external_url` and
 * `animation_url` only when present. Pure; unit-tested alone.
 */

export interface NftAttribute {
  trait_type: string;
  value: string;
}

export interface NftMetadata {
  name: string;
  image: string;
  description: string;
  attributes?: NftAttribute[];
  properties?: Record<string, unknown>;
  external_url?: string;
  animation_url?: string;
}

/** What an item carries when no metadata could be fetched (yet). */
export const EMPTY_METADATA: Readonly<NftMetadata> = Object.freeze({
  name: '',
  image: '',
  description: '',
  attributes: [],
});

export class MetadataFormatError extends PermanentError {
  constructor(message: string) {
    super(message);
    this.name = 'MetadataFormatError';
  }
}

/** Nesting kept from free-form values; deeper parts become null (jsonb and stacks stay safe). */
const MAX_DEPTH = 16;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * A copy Postgres can store (storableText: no U+0000, no half of a surrogate pair; jsonb refuses
 * both, and such a document stayed "pending" for ever) without nesting deeper than MAX_DEPTH.
 * Keys become own properties whatever they are: a `__proto__` key set the copy's prototype,
 * and its members showed as the document's.
 */
function clean(v: unknown, depth = 0): unknown {
  if (typeof v === 'string') return storableText(v);
  if (typeof v !== 'object' || v === null) return v;
  if (depth >= MAX_DEPTH) return null;
  if (Array.isArray(v)) return v.map((x) => clean(x, depth + 1));
  return Object.fromEntries(
    Object.entries(v).map(([k, x]) => [storableText(k), clean(x, depth + 1)]),
  );
}

function text(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  return '';
}

/** Attribute values are numbers, strings or booleans in the wild; the spec says string. */
function valueText(v: unknown): string {
  if (v === null || v === undefined) return '';
  return typeof v === 'object' ? JSON.stringify(v) : text(v);
}

function imageOf(doc: Record<string, unknown>): string {
  const image = text(doc.image) || text(doc.image_url);
  if (image) return image;
  // OpenSea's image_data: raw SVG markup, served as a data: URI.
  const svg = text(doc.image_data).trim();
  return svg.startsWith('<svg')
    ? `data:image/svg+xml;base64,${Buffer.from(svg, 'utf8').toString('base64')}`
    : '';
}

/** The normalised metadata of a JSON document; throws MetadataFormatError when it is not a JSON object. */
export function normalizeMetadata(json: string): NftMetadata {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json.replace(/^\uFEFF/, ''));
  } catch {
    throw new MetadataFormatError('metadata is not JSON');
  }
  if (!isObject(parsed)) throw new MetadataFormatError('metadata is not a JSON object');
  const doc = clean(parsed) as Record<string, unknown>;
  const out: NftMetadata = {
    name: text(doc.name),
    image: imageOf(doc),
    description: text(doc.description),
  };
  if (Array.isArray(doc.attributes)) {
    out.attributes = doc.attributes
      .filter(isObject)
      .map((a) => ({ trait_type: text(a.trait_type), value: valueText(a.value) }));
  }
  if (isObject(doc.properties)) out.properties = doc.properties;
  if (!out.attributes && !out.properties) out.attributes = [];
  const externalUrl = text(doc.external_url);
  const animationUrl = text(doc.animation_url);
  if (externalUrl) out.external_url = externalUrl;
  if (animationUrl) out.animation_url = animationUrl;
  return out;
}
