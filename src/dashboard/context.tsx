import type { Context, MiddlewareHandler } from 'hono';
import type { HtmlEscapedString } from 'hono/utils/html';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { type OperatorRole, roleAllows } from '../operators/index.js';
import type { TravelRuleDeps } from '../travelrule/index.js';
import { Layout } from './layout.js';
import type { Session } from './session.js';
import type { ProxyTrust } from '../net/proxy.js';
import type { Admission } from '../api/admission.js';
import type { DeliveriesDeps } from '../deliveries/index.js';

/** What the dashboard needs from the appliance. */
export interface DashboardDeps {
  /** The Travel Rule's deps: its pool, keyring, public URL and the retry limit of webhooks and messages. */
  travelRule: TravelRuleDeps;
  /** Behind a TLS-terminating proxy: the forwarded host counts as this host in the Origin check. */
  trustProxy?: ProxyTrust | null;
  /** The longest a page waits for its answer (config request_timeout_ms; src/api/deadline.ts). */
  requestTimeoutMs: number;
  /** The line of requests sharing the API's pool (src/api/admission.ts); none: no line. */
  admission?: Admission;
  /**
   * This process's API key cache (src/keys/cache.ts): emptied as soon as a key is revoked here,
   * so the key is refused at once in this process, not when the revocation's notification comes
   * back from Postgres.
   */
  apiKeys?: { clear(): void };
  /** The largest request body taken (config max_body_bytes); a larger one gets a 413 page. */
  maxBodyBytes: number;
}

/** The webhook operations' deps (src/deliveries/) as the dashboard's pages use them. */
export function deliveriesDeps(deps: DashboardDeps): DeliveriesDeps {
  return {
    sql: deps.travelRule.sql,
    maxAttempts: deps.travelRule.maxAttempts,
    travelRuleWebhookUrl: deps.travelRule.config.webhook_url,
  };
}

export type DashEnv = {
  Variables: {
    requestId: string;
    session: Session;
    /** The POSTed form, read once by the CSRF check. */
    form: Record<string, string>;
  };
};

export type DashContext = Context<DashEnv>;

export const PAGE_SIZE = 50;

/** A whole HTML document from a page element. */
export async function render(
  c: Context,
  page: HtmlEscapedString | Promise<HtmlEscapedString>,
  status: ContentfulStatusCode = 200,
): Promise<Response> {
  // A JSX node renders itself by toString() (a promise when a component is async).
  const body = await (page as unknown as { toString(): string | Promise<string> }).toString();
  return c.html('<!DOCTYPE html>\n' + body, status);
}

/** A page that only says what went wrong (in role="alert"), inside the frame when there is a session. */
export function errorPage(
  c: DashContext,
  status: ContentfulStatusCode,
  title: string,
  message: string,
): Promise<Response> {
  const session = c.get('session') as Session | undefined;
  return render(
    c,
    <Layout title={title} session={session} error={message}>
      <p>
        <a href="/dashboard/travelrule">Back to the Travel Rule queue</a>
      </p>
    </Layout>,
    status,
  );
}

export function forbiddenForRole(c: DashContext, needed: OperatorRole): Promise<Response> {
  return errorPage(
    c,
    403,
    'Not allowed',
    `This action needs the ${needed} role; you are ${c.get('session').operator.role}.`,
  );
}

/** Only operators with at least `needed` get through; the others get a 403 page. */
export function requireRole(needed: OperatorRole): MiddlewareHandler<DashEnv> {
  return async (c, next) => {
    if (!roleAllows(c.get('session').operator.role, needed)) return forbiddenForRole(c, needed);
    await next();
  };
}

/** A string field of the POSTed form ('' when absent). */
export function field(c: DashContext, name: string): string {
  return c.get('form')[name] ?? '';
}

/** A query string from the entries with a value. */
export function queryString(params: Record<string, string | number | undefined>): string {
  const q = new URLSearchParams();
  for (const [key, value] of Object.entries(params))
    if (value !== undefined) q.set(key, String(value));
  const s = q.toString();
  return s ? `?${s}` : '';
}

/** A CSV download, `tollgate-<name>-<UTC day>.csv`, never cached. */
export function csvDownload(c: DashContext, name: string, csv: string): Response {
  const day = new Date().toISOString().slice(0, 10);
  return c.body(csv, 200, {
    'content-type': 'text/csv; charset=utf-8',
    'content-disposition': `attachment; filename="tollgate-${name}-${day}.csv"`,
    'cache-control': 'no-store',
  });
}

/** A positive page number from the query, 1 when absent or not a number. */
export function pageParam(value: string | undefined): number {
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 && n <= 1_000_000 ? n : 1;
}
