import { PermanentError } from '../errors.js';
import http from 'node:http';
import https from 'node:https';
import { type AllowList, guardedLookup, literalHostAllowed, parseWebhookUrl } from './ssrf.js';

/**
 * GET of a URL named by someone else (a token contract), under the same rule as webhooks: only
 * public addresses, or ranges listed in TOLLGATE_WEBHOOK_ALLOW_CIDRS. A name is resolved once and
 * the socket connects to the address that passed (guardedLookup: no DNS rebinding); an IP literal
 * is judged here, because http.request never calls `lookup` for one. Redirects are followed at
 * most `maxRedirects` times, each target checked the same way. Size and time are bounded.
 */

export const MAX_REDIRECTS = 3;

export class FetchError extends PermanentError {
  constructor(message: string) {
    super(message);
    this.name = 'FetchError';
  }
}

export interface GuardedGetOptions {
  allow: AllowList;
  /** For the whole fetch, redirects included. */
  timeoutMs: number;
  maxBytes: number;
  maxRedirects?: number;
  /** Ends the fetch at once (a FetchError) when it aborts: its worker is stopping. */
  signal?: AbortSignal;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** The URL when it is http(s), carries no credentials and, when an IP literal, an allowed one. */
export function checkFetchTarget(value: string, allow: AllowList): URL {
  const parsed = parseWebhookUrl(value, true);
  if (!parsed.ok) throw new FetchError(`URL ${parsed.reason}`);
  if (!literalHostAllowed(parsed.url, allow))
    throw new FetchError('URL points at a forbidden address');
  return parsed.url;
}

/** The body of a 2xx answer, following redirects; throws FetchError with a short, log-safe reason. */
export async function guardedGet(urlString: string, opts: GuardedGetOptions): Promise<Buffer> {
  const deadline = Date.now() + opts.timeoutMs;
  const maxRedirects = opts.maxRedirects ?? MAX_REDIRECTS;
  let url = checkFetchTarget(urlString, opts.allow);
  for (let hop = 0; ; hop++) {
    const answer = await getOnce(url, opts, deadline);
    if ('body' in answer) return answer.body;
    if (hop >= maxRedirects) throw new FetchError(`more than ${maxRedirects} redirects`);
    let next: string;
    try {
      next = new URL(answer.location, url).href;
    } catch {
      throw new FetchError('redirect to an invalid URL');
    }
    url = checkFetchTarget(next, opts.allow);
  }
}

function describe(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  if (e.code === 'EFORBIDDENADDR') return 'host resolves to a forbidden address';
  return `${e.code ?? e.name ?? 'error'}: ${String(e.message ?? e).split('\n')[0]}`.slice(0, 200);
}

function getOnce(
  url: URL,
  opts: GuardedGetOptions,
  deadline: number,
): Promise<{ body: Buffer } | { location: string }> {
  const mod = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    if (opts.signal?.aborted) return reject(new FetchError('given up: the worker is stopping'));
    let settled = false;
    const req = mod.request(url, {
      method: 'GET',
      headers: {
        accept: 'application/json, */*;q=0.5',
        'accept-encoding': 'identity',
        'user-agent': 'tollgate-nft-metadata',
      },
      lookup: guardedLookup(opts.allow) as never,
      agent: false,
    });
    const finish = (outcome: Error | { body: Buffer } | { location: string }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', abandon);
      req.destroy();
      if (outcome instanceof Error)
        reject(outcome instanceof FetchError ? outcome : new FetchError(describe(outcome)));
      else resolve(outcome);
    };
    const timer = setTimeout(
      () => finish(new FetchError(`no answer within ${opts.timeoutMs} ms`)),
      Math.max(0, deadline - Date.now()),
    );
    const abandon = () => finish(new FetchError('given up: the worker is stopping'));
    opts.signal?.addEventListener('abort', abandon, { once: true });
    req.on('error', finish);
    req.on('response', (res) => {
      const status = res.statusCode ?? 0;
      if (REDIRECTS.has(status)) {
        const location = res.headers.location;
        return finish(
          location ? { location } : new FetchError(`redirect ${status} without a location`),
        );
      }
      if (status < 200 || status >= 300)
        return finish(new FetchError(`metadata server answered ${status}`));
      if (Number(res.headers['content-length']) > opts.maxBytes)
        return finish(new FetchError(`larger than ${opts.maxBytes} bytes`));
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > opts.maxBytes) finish(new FetchError(`larger than ${opts.maxBytes} bytes`));
        else chunks.push(chunk);
      });
      res.on('end', () => finish({ body: Buffer.concat(chunks) }));
      res.on('error', finish);
      res.on('close', () =>
        finish(new FetchError('connection closed before the end of the answer')),
      );
    });
    req.end();
  });
}
