import { expect } from 'vitest';
import { call, type Reply } from './http.js';

/** How a client's requests reach the appliance: `call` by default. */
export type Transport = (
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
) => Promise<Reply>;

/**
 * The dashboard as a browser drives it, over real HTTP(S): a cookie jar, forms POSTed with the
 * page's CSRF token and the appliance's Origin, and the login form. `headers` go with every
 * request (a proxy's forwarded headers, say); `transport` replaces how requests are sent (from
 * another client address, say).
 */
export class DashboardClient {
  cookies = new Map<string, string>();
  private readonly send: Transport;

  constructor(
    readonly baseUrl: string,
    private readonly opts: { headers?: Record<string, string>; transport?: Transport } = {},
  ) {
    this.send =
      opts.transport ??
      ((method, path, headers, body) =>
        call(baseUrl, method, path, { headers, ...(body === undefined ? {} : { body }) }));
  }

  private remember(reply: Reply): Reply {
    const set = reply.headers['set-cookie'];
    for (const line of Array.isArray(set) ? set : set ? [set] : []) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (value === '' || /max-age=0/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return reply;
  }

  /**
   * The Origin a browser sends with a form: the page's scheme and host as the browser reached
   * them, https at a TLS-ending proxy (its X-Forwarded-Proto) in front of a plain-HTTP appliance.
   */
  private origin(): string {
    const url = new URL(this.baseUrl);
    const proto = this.opts.headers?.['x-forwarded-proto'];
    return proto ? `${proto}://${url.host}` : url.origin;
  }

  private headers(): Record<string, string> {
    return {
      ...this.opts.headers,
      ...(this.cookies.size
        ? { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') }
        : {}),
    };
  }

  async get(path: string): Promise<Reply> {
    return this.remember(await this.send('GET', path, this.headers()));
  }

  async post(
    path: string,
    form: Record<string, string>,
    headers: Record<string, string> = {},
  ): Promise<Reply> {
    return this.remember(
      await this.send(
        'POST',
        path,
        {
          ...this.headers(),
          'content-type': 'application/x-www-form-urlencoded',
          origin: this.origin(),
          ...headers,
        },
        new URLSearchParams(form).toString(),
      ),
    );
  }

  /** GETs the page and POSTs a form to `action` with the CSRF token the page carries. */
  async submit(
    pagePath: string,
    action: string,
    form: Record<string, string>,
    headers: Record<string, string> = {},
  ): Promise<Reply> {
    const page = await this.get(pagePath);
    expect(page.status).toBe(200);
    return this.post(action, { _csrf: csrfOf(page.text), ...form }, headers);
  }
}

export function csrfOf(html: string): string {
  const m = /name="_csrf" value="([^"]+)"/.exec(html);
  if (!m) throw new Error('no CSRF field on the page');
  return m[1]!;
}

/** Logs in through the form (an operator without a second factor); the client keeps the session. */
export async function dashboardLogin(
  baseUrl: string,
  login: string,
  password: string,
): Promise<DashboardClient> {
  const client = new DashboardClient(baseUrl);
  const form = await client.get('/dashboard/login');
  const reply = await client.post('/dashboard/login', {
    _csrf: csrfOf(form.text),
    login,
    password,
  });
  expect(reply.status).toBe(303);
  return client;
}
