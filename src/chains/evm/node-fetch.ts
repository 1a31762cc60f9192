import { request } from 'undici';

/**
 * The fetch the EVM client's HTTP transport uses (viem's `fetchFn`): one request through undici's
 * `request`, the answer read whole and handed to viem as a Response. Node's global fetch reads an
 * answer through web streams chunk by chunk; a block with its transactions, or a batch of receipts,
 * is tens of kilobytes to megabytes, and that reading was about a sixth of the indexer's time in a
 * backfill. Redirects are not followed (a node's RPC endpoint that redirects answers with its
 * status, an error); an answer larger than MAX_BODY_BYTES is refused while it is read, as viem's
 * own limit (the same size) would refuse it after.
 */

/** viem's default maxResponseBodySize. */
export const MAX_BODY_BYTES = 10_485_760;

export async function nodeFetch(
  input: string | URL | Request,
  init?: RequestInit,
): Promise<Response> {
  const url = input instanceof Request ? input.url : String(input);
  const res = await request(url, {
    method: (init?.method ?? 'GET') as 'POST',
    headers:
      init?.headers instanceof Headers
        ? Object.fromEntries(init.headers)
        : (init?.headers as Record<string, string> | undefined),
    body: typeof init?.body === 'string' ? init.body : undefined,
    signal: init?.signal ?? undefined,
  });
  const body = await readBody(res.body, MAX_BODY_BYTES, (message) => new Error(message));
  const headers = new Headers();
  for (const [name, value] of Object.entries(res.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  // A status that has no body (1xx, 204, 205, 304) cannot be given one.
  const bodiless = res.statusCode < 200 || [204, 205, 304].includes(res.statusCode);
  return new Response(bodiless ? null : body, {
    status: res.statusCode,
    headers,
  });
}

/**
 * A node's answer read whole, refused past `limit` bytes while it is read (the stream destroyed,
 * the error `tooLarge` makes of the message thrown).
 */
export async function readBody(
  body: AsyncIterable<Buffer> & { destroy(): void },
  limit: number,
  tooLarge: (message: string) => Error,
): Promise<Buffer<ArrayBuffer>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > limit) {
      body.destroy();
      throw tooLarge(`the node's answer is larger than ${limit} bytes`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}
