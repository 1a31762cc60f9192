import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, paths, webhooks } from './schema.js';

/**
 * A typed client of the Tollgate /v2 API: the paths, parameters, bodies and answers of
 * client/schema.d.ts, generated from the appliance's OpenAPI document (`npm run client`).
 * Built on openapi-fetch (a dependency of your project when you copy this folder).
 *
 *   const tollgate = tollgateClient({ baseUrl: 'https://tollgate.internal:8443', apikey });
 *   const { data, error } = await tollgate.GET('/stream/list', { params: { query: { page: '1' } } });
 *
 * `data` is the success envelope ({code: 0, message: 'OK', data, page_count?}); `error` the
 * error body ({code, status, message, detail?}) of any 4xx/5xx answer.
 */
export function tollgateClient(
  options: { baseUrl: string; apikey: string } & Omit<ClientOptions, 'baseUrl'>,
): Client<paths> {
  const { baseUrl, apikey, headers, ...rest } = options;
  return createClient<paths>({
    ...rest,
    baseUrl: `${baseUrl.replace(/\/+$/, '')}/v2`,
    headers: { ...(headers as Record<string, string> | undefined), apikey },
  });
}

export type { components, paths, webhooks };
/** The error body of every refusal. */
export type ErrorBody = components['schemas']['Error'];
