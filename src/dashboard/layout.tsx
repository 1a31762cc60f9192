import type { Child, FC } from 'hono/jsx';
import type { Operator } from '../operators/index.js';
import { CSRF_FIELD } from './csrf.js';

/**
 * The page frame of the dashboard: skip link, header with the navigation and the logout form,
 * the flash and error messages, and one stylesheet inline (the CSP allows no other source).
 * Plain HTML: every page works without JavaScript. Text is escaped by hono/jsx; nothing here
 * writes raw HTML.
 */

const STYLE = `
:root { color-scheme: light; --fg: #1a1a1a; --muted: #4a4a4a; --line: #c8c8c8; --accent: #0b4f9c; --bad: #a4161a; --good: #1b5e20; }
* { box-sizing: border-box; }
body { font: 15px/1.5 system-ui, -apple-system, Segoe UI, Roboto, sans-serif; color: var(--fg); background: #fff; margin: 0; }
a { color: var(--accent); }
a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible, textarea:focus-visible { outline: 3px solid #f2a900; outline-offset: 2px; }
.skip { position: absolute; left: -999px; top: 0; background: #fff; padding: .5rem 1rem; }
.skip:focus { left: 1rem; top: 1rem; z-index: 10; }
header { border-bottom: 2px solid var(--fg); padding: .5rem 1rem; display: flex; flex-wrap: wrap; gap: .5rem 1.5rem; align-items: center; }
header .brand { font-weight: 700; }
nav ul { list-style: none; display: flex; flex-wrap: wrap; gap: .25rem 1rem; margin: 0; padding: 0; }
nav a[aria-current=page] { font-weight: 700; text-decoration-thickness: 3px; }
header .who { margin-left: auto; display: flex; gap: .75rem; align-items: center; color: var(--muted); }
main { padding: 1rem 1rem 3rem; max-width: 90rem; }
h1 { font-size: 1.5rem; margin: .5rem 0 1rem; }
h2 { font-size: 1.15rem; margin: 1.75rem 0 .5rem; padding-bottom: .2rem; border-bottom: 1px solid var(--fg); }
h3 { font-size: 1rem; margin: 1rem 0 .25rem; }
table { border-collapse: collapse; width: 100%; margin: .5rem 0; }
caption { text-align: left; color: var(--muted); padding: .25rem 0; }
th, td { border-bottom: 1px solid var(--line); padding: .35rem .5rem; text-align: left; vertical-align: top; }
th { background: #f0f0f0; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
td.ref, h1 { overflow-wrap: anywhere; }
code, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: .9em; overflow-wrap: anywhere; }
dl { display: grid; grid-template-columns: minmax(10rem, 16rem) 1fr; gap: .3rem 1rem; margin: 0; }
dt { font-weight: 600; }
dd { margin: 0; overflow-wrap: anywhere; }
form.filters { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: flex-end; margin-bottom: 1rem; }
form.filters label, form.stack label { display: block; font-weight: 600; }
form.stack { max-width: 40rem; display: grid; gap: .75rem; margin: .5rem 0 1rem; }
form.inline { display: inline; }
input, select, textarea { font: inherit; padding: .3rem .4rem; border: 1px solid #767676; border-radius: 2px; color: var(--fg); background: #fff; }
textarea { width: 100%; min-height: 5rem; }
button { font: inherit; padding: .35rem .9rem; border: 1px solid var(--accent); background: var(--accent); color: #fff; border-radius: 2px; cursor: pointer; }
button.secondary { background: #fff; color: var(--accent); }
button.danger { background: var(--bad); border-color: var(--bad); }
.field-error { color: var(--bad); font-weight: 600; display: block; }
.alert { border: 2px solid var(--bad); color: var(--bad); padding: .5rem .75rem; margin: .5rem 0 1rem; font-weight: 600; }
.status { border: 2px solid var(--good); color: var(--good); padding: .5rem .75rem; margin: .5rem 0 1rem; font-weight: 600; }
.secret { border: 2px dashed var(--fg); padding: .75rem; margin: .5rem 0 1rem; }
.muted { color: var(--muted); }
.tags { margin: 0; padding: 0; list-style: none; display: inline; }
.tags li { display: inline-block; border: 1px solid var(--bad); color: var(--bad); border-radius: 2px; padding: 0 .3rem; margin: 0 .25rem .1rem 0; font-size: .85em; }
.score-high { color: var(--bad); font-weight: 700; }
.notes { list-style: none; padding: 0; margin: .5rem 0; }
.notes li { border-left: 3px solid var(--line); padding: .25rem .75rem; margin: 0 0 .75rem; }
.note-body { white-space: pre-wrap; overflow-wrap: anywhere; margin: .25rem 0 0; }
.failed { color: var(--bad); font-weight: 700; }
.pager { display: flex; gap: 1rem; align-items: center; margin: .75rem 0; }
.decisions { display: grid; grid-template-columns: repeat(auto-fit, minmax(20rem, 1fr)); gap: 1rem 2rem; }
.decisions form { border: 1px solid var(--line); padding: .75rem; display: grid; gap: .5rem; }
@media (max-width: 40rem) { dl { grid-template-columns: 1fr; } }
`;

// Written as text by hono/jsx, which escapes it: the stylesheet holds no & < > " ' (font names unquoted).
if (/[&<>"']/.test(STYLE))
  throw new Error('dashboard stylesheet must not hold characters that HTML escapes');

const NAV: { href: string; text: string; admin?: true }[] = [
  { href: '/dashboard/travelrule', text: 'Travel Rule' },
  { href: '/dashboard/audit', text: 'Audit log' },
  { href: '/dashboard/vasps', text: 'VASPs' },
  { href: '/dashboard/operations', text: 'Operations' },
  { href: '/dashboard/webhooks', text: 'Webhooks' },
  { href: '/dashboard/operators', text: 'Operators', admin: true },
  { href: '/dashboard/keys', text: 'API keys', admin: true },
  { href: '/dashboard/account', text: 'Account' },
];

export const CsrfField: FC<{ token: string }> = ({ token }) => (
  <input type="hidden" name={CSRF_FIELD} value={token} />
);

export interface PageProps {
  title: string;
  /** Absent on the login page and on error pages shown before a session exists. */
  session?: { operator: Operator; csrfToken: string };
  /** The nav entry to mark as the current page. */
  current?: string;
  /** False on the pages of a half-open session (enrolment): the logout only, no navigation. */
  nav?: boolean;
  flash?: string | undefined;
  error?: string | undefined;
  children?: Child;
}

export const Layout: FC<PageProps> = ({
  title,
  session,
  current,
  nav = true,
  flash,
  error,
  children,
}) => (
  <html lang="en">
    <head>
      <meta charset="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <meta name="robots" content="noindex, nofollow" />
      {/* No icon: without this the browser asks for /favicon.ico and gets a 404 on every page. */}
      <link rel="icon" href="data:," />
      <title>{`${title} · Tollgate`}</title>
      <style>{STYLE}</style>
    </head>
    <body>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header>
        <span class="brand">Tollgate</span>
        {session && nav ? (
          <nav aria-label="Dashboard">
            <ul>
              {NAV.filter((n) => !n.admin || session.operator.role === 'admin').map((n) => (
                <li>
                  <a href={n.href} aria-current={current === n.href ? 'page' : undefined}>
                    {n.text}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        ) : null}
        {session ? (
          <div class="who">
            <span>
              {session.operator.login} ({session.operator.role})
            </span>
            <form method="post" action="/dashboard/logout" class="inline">
              <CsrfField token={session.csrfToken} />
              <button type="submit" class="secondary">
                Log out
              </button>
            </form>
          </div>
        ) : null}
      </header>
      <main id="main" tabindex={-1}>
        <h1>{title}</h1>
        {flash ? (
          <p class="status" role="status">
            {flash}
          </p>
        ) : null}
        {error ? (
          <p class="alert" role="alert">
            {error}
          </p>
        ) : null}
        {children}
      </main>
    </body>
  </html>
);

/** Previous / next links for a page of `total` rows; `href` builds the link of a page number. */
export const Pager: FC<{
  page: number;
  total: number;
  limit: number;
  href: (page: number) => string;
}> = ({ page, total, limit, href }) => {
  const pages = Math.max(1, Math.ceil(total / limit));
  return (
    <nav class="pager" aria-label="Pages">
      {page > 1 ? (
        <a href={href(page - 1)} rel="prev">
          Previous page
        </a>
      ) : (
        <span class="muted">Previous page</span>
      )}
      <span>
        Page {Math.min(page, pages)} of {pages} ({total} in all)
      </span>
      {page < pages ? (
        <a href={href(page + 1)} rel="next">
          Next page
        </a>
      ) : (
        <span class="muted">Next page</span>
      )}
    </nav>
  );
};

/** "2025-03-04 05:06:07 UTC" in a <time> element. */
export const Time: FC<{ at: Date | string | null | undefined }> = ({ at }) => {
  if (at === null || at === undefined) return <span class="muted">—</span>;
  const iso = new Date(at).toISOString();
  return <time datetime={iso}>{`${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`}</time>;
};

/** A label and its input, with the field's error next to it (aria-describedby). */
export const Field: FC<{
  name: string;
  label: string;
  value?: string | undefined;
  error?: string | undefined;
  type?: string;
  hint?: string;
  required?: boolean;
  autocomplete?: string;
}> = (p) => {
  const id = `f-${p.name}`;
  const described =
    [p.hint ? `${id}-hint` : '', p.error ? `${id}-error` : ''].filter(Boolean).join(' ') ||
    undefined;
  return (
    <div>
      <label for={id}>
        {p.label}
        {p.required ? ' (required)' : ''}
      </label>
      {p.hint ? (
        <span id={`${id}-hint`} class="muted">
          {p.hint}
        </span>
      ) : null}
      <input
        id={id}
        name={p.name}
        type={p.type ?? 'text'}
        value={p.value ?? ''}
        aria-invalid={p.error ? 'true' : undefined}
        aria-describedby={described}
        aria-required={p.required ? 'true' : undefined}
        autocomplete={p.autocomplete}
      />
      {p.error ? (
        <span id={`${id}-error`} class="field-error">
          {p.error}
        </span>
      ) : null}
    </div>
  );
};
