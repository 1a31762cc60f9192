import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The client address of the request being served, for the audit entries it writes: set once per
 * request by the HTTP app (src/api/app.ts, from ProxyTrust.originOf) so that every recordAudit
 * below it — dashboard, operator API, view link, /v2 — carries it without each call site passing
 * it. Outside a request (the CLI, the worker, the indexer) there is none: the entry's is null.
 */
const requestClient = new AsyncLocalStorage<string | null>();

/** Runs `body` with `address` as the client address of the audit entries it writes. */
export function withAuditClient<T>(address: string | null | undefined, body: () => T): T {
  return requestClient.run(address ?? null, body);
}

/** The client address of the request being served, or null outside one. */
export function currentAuditClient(): string | null {
  return requestClient.getStore() ?? null;
}
