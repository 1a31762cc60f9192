import { expect } from 'vitest';
import { call, type Reply } from './http.js';

/**
 * The dashboard as a browser drives it, over real HTTP(S): a cookie jar, forms POSTed with the
 * page's CSRF token and the appliance's Origin, and the login form.
 */
export class DashboardClient {
  cookies = new Map<string, string>();

  constructor(readonly baseUrl: string) {}

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

  private cookieHeader(): Record<string, string> {
    return this.cookies.size
      ? { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') }
      : {};
  }

  async get(path: string): Promise<Reply> {
    return this.remember(await call(this.baseUrl, 'GET', path, { headers: this.cookieHeader() }));
  }

  async post(path: string, form: Record<string, string>): Promise<Reply> {
    return this.remember(
      await call(this.baseUrl, 'POST', path, {
        headers: {
          ...this.cookieHeader(),
          'content-type': 'application/x-www-form-urlencoded',
          origin: this.baseUrl,
        },
        body: new URLSearchParams(form).toString(),
      }),
    );
  }

  /** GETs the page and POSTs a form to `action` with the CSRF token the page carries. */
  async submit(pagePath: string, action: string, form: Record<string, string>): Promise<Reply> {
    const page = await this.get(pagePath);
    expect(page.status).toBe(200);
    return this.post(action, { _csrf: csrfOf(page.text), ...form });
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
