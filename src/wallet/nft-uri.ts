import { PermanentError } from '../errors.js';
/**
 * Pure handling of the URIs found in NFT contracts and metadata: the ERC-1155 `{id}` template,
 * ipfs:// through the configured gateway, data: URIs decoded locally. No I/O; unit-tested alone.
 */

/** EIP-1155: `{id}` is replaced by the id as 64 lower-case hex digits, no 0x. */
export function substituteErc1155Id(template: string, tokenId: bigint): string {
  return template.replaceAll('{id}', tokenId.toString(16).padStart(64, '0'));
}

/** The gateway as a base URL that ends in `/` (`https://ipfs.io/ipfs` → `https://ipfs.io/ipfs/`). */
export function gatewayBase(gateway: string): string {
  const href = new URL(gateway).href;
  return href.endsWith('/') ? href : `${href}/`;
}

/**
 * `ipfs://<cid>[/path]` as a URL of the gateway, or null when the URI is not ipfs:// or would
 * leave the gateway's path (`ipfs://../x`). The common mistake `ipfs://ipfs/<cid>` is accepted.
 */
export function ipfsToGateway(uri: string, gateway: string): string | null {
  if (!/^ipfs:\/\//i.test(uri)) return null;
  let rest = uri.slice('ipfs://'.length).replace(/^ipfs\//i, '');
  rest = rest.replace(/^\/+/, '');
  if (!rest) return null;
  const base = gatewayBase(gateway);
  let url: URL;
  try {
    url = new URL(base + rest);
  } catch {
    return null;
  }
  return url.href.startsWith(base) ? url.href : null;
}

/**
 * The URL a browser can load for an image or media URI: http(s) as it is, ipfs:// through the
 * gateway, data: passed through; '' for anything else (ar://, javascript:, garbage).
 */
export function browserUrl(uri: string, gateway: string): string {
  if (!uri) return '';
  if (/^data:/i.test(uri)) return uri;
  const ipfs = ipfsToGateway(uri, gateway);
  if (ipfs) return ipfs;
  try {
    const url = new URL(uri);
    return url.protocol === 'http:' || url.protocol === 'https:' ? uri : '';
  } catch {
    return '';
  }
}

export class DataUriError extends PermanentError {
  constructor(message: string) {
    super(message);
    this.name = 'DataUriError';
  }
}

/**
 * The text of a data: URI (RFC 2397): base64 or percent-encoded. On-chain metadata often carries
 * raw JSON after `data:application/json;utf8,` with a stray `%`; then the text is taken as it is.
 */
export function decodeDataUri(uri: string, maxBytes: number): string {
  if (!/^data:/i.test(uri)) throw new DataUriError('not a data: URI');
  const comma = uri.indexOf(',');
  if (comma < 0) throw new DataUriError('data: URI without a comma');
  // Base64 takes 4 characters per 3 bytes; percent-encoding up to 3 per byte.
  if (uri.length - comma > maxBytes * 3 + 4)
    throw new DataUriError(`data: URI larger than ${maxBytes} bytes`);
  const params = uri
    .slice(5, comma)
    .split(';')
    .map((p) => p.trim().toLowerCase());
  const payload = uri.slice(comma + 1);
  const bytes = params.includes('base64')
    ? Buffer.from(payload.includes('%') ? safeDecode(payload) : payload, 'base64')
    : Buffer.from(safeDecode(payload), 'utf8');
  if (bytes.length > maxBytes) throw new DataUriError(`data: URI larger than ${maxBytes} bytes`);
  return bytes.toString('utf8');
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Where a token URI's metadata comes from. */
export type MetadataSource =
  | { kind: 'data'; uri: string }
  | { kind: 'http'; url: string }
  | { kind: 'unsupported'; reason: string };

export function metadataSource(uri: string, gateway: string): MetadataSource {
  if (/^data:/i.test(uri)) return { kind: 'data', uri };
  if (/^ipfs:/i.test(uri)) {
    const url = ipfsToGateway(uri, gateway);
    return url ? { kind: 'http', url } : { kind: 'unsupported', reason: 'malformed ipfs:// URI' };
  }
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return { kind: 'unsupported', reason: 'token URI is not a URI' };
  }
  if (url.protocol === 'http:' || url.protocol === 'https:') return { kind: 'http', url: url.href };
  return {
    kind: 'unsupported',
    reason: `unsupported URI scheme ${url.protocol.slice(0, -1).slice(0, 20)}`,
  };
}
