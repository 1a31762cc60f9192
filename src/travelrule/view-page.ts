import type { NormalisedParty } from './ivms101/normalise.js';
import { type PersonRow, personRows } from './ivms101/display.js';

/**
 * The page behind an e-mailed transaction view link: the IVMS101 data of one transaction,
 * server-rendered. No JavaScript, no external resources (the CSP below forbids both), every
 * value HTML-escaped: the names and addresses were typed by a customer of some VASP.
 */

export interface ViewPageData {
  transactionRef: string;
  direction: 'outgoing' | 'incoming';
  status: string;
  asset: string;
  network: string | null;
  amount: string;
  createdAt: Date;
  /** Our VASP name (config travel_rule.vasp_name): who shares the data. */
  fromVasp: string;
  originator: NormalisedParty;
  beneficiary: NormalisedParty;
  txHash: string | null;
  expiresAt: Date;
}

/** Response headers of both pages. no-referrer: the token is in the URL; no-store: the page holds personal data. */
export const VIEW_PAGE_HEADERS: Record<string, string> = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
  'x-frame-options': 'DENY',
};

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/**
 * Unicode's bidirectional controls (embeddings, overrides, isolates, marks). In a value typed at
 * another VASP, an override (U+202E) turns the text after it around up to the end of its line,
 * our own words beside it included: a reviewer would read something other than what is stored.
 */
const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * Text as it is stored, with each bidirectional control shown as its code point (`[U+202E]`)
 * instead of acting: for what other VASPs and customers typed, on the pages that show it.
 */
export function withVisibleControls(value: string): string {
  return value.replace(
    BIDI_CONTROLS,
    (c) => `[U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}]`,
  );
}

/**
 * Text made safe for HTML element content and quoted attribute values; bidirectional controls
 * shown, not acting (withVisibleControls).
 */
export function escapeHtml(value: string): string {
  return withVisibleControls(value).replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

/** "2025-03-04 05:06:07 UTC" inside a <time> element. */
export function htmlTime(d: Date): string {
  const iso = d.toISOString();
  return `<time datetime="${escapeHtml(iso)}">${escapeHtml(`${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`)}</time>`;
}

type Row = [label: string, html: string];

function dl(rows: Row[]): string {
  return `<dl>\n${rows.map(([label, html]) => `<dt>${escapeHtml(label)}</dt><dd>${html}</dd>`).join('\n')}\n</dl>`;
}

/** A row of personRows as HTML: names isolated (<bdi>), identifiers in monospace, all escaped. */
function rowHtml(row: PersonRow): string {
  const parts = row.parts.map((p) =>
    p.kind === 'name'
      ? `<bdi>${escapeHtml(p.text)}</bdi>`
      : p.kind === 'id'
        ? `<span class="id">${escapeHtml(p.text)}</span>`
        : escapeHtml(p.text),
  );
  const value = parts.join(row.join === 'lines' ? '<br>' : ', ');
  return row.note !== undefined
    ? `${value} <span class="note">${escapeHtml(row.note)}</span>`
    : value;
}

function partySection(title: string, slug: string, party: NormalisedParty): string {
  const persons = party.persons.map((p, i) => {
    const heading = party.persons.length > 1 ? `<h3>Person ${i + 1}</h3>\n` : '';
    return heading + dl(personRows(p).map((row): Row => [row.label, rowHtml(row)]));
  });
  const accounts = party.accountNumber.length
    ? `<ul class="accounts">${party.accountNumber.map((a) => `<li><code>${escapeHtml(a)}</code></li>`).join('')}</ul>`
    : '<p>None given.</p>';
  return `<section aria-labelledby="${slug}">
<h2 id="${slug}">${escapeHtml(title)}</h2>
${persons.join('\n') || '<p>No person given.</p>'}
<h3>Wallet addresses (account numbers)</h3>
${accounts}
</section>`;
}

const STYLE = `
:root { color-scheme: light; }
body { font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1a1a1a; background: #fff; margin: 0; }
main { max-width: 52rem; margin: 0 auto; padding: 1.5rem 1rem 3rem; }
h1 { font-size: 1.5rem; margin: 0 0 .25rem; }
h2 { font-size: 1.2rem; margin: 2rem 0 .5rem; padding-bottom: .25rem; border-bottom: 2px solid #1a1a1a; }
h3 { font-size: 1rem; margin: 1.25rem 0 .25rem; }
dl { display: grid; grid-template-columns: minmax(10rem, 16rem) 1fr; gap: .35rem 1rem; margin: 0; }
dt { font-weight: 600; }
dd { margin: 0; overflow-wrap: anywhere; }
code, .id { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; overflow-wrap: anywhere; }
.note { color: #4a4a4a; font-size: .875rem; }
.notice { border: 2px solid #1a1a1a; padding: .75rem 1rem; margin: 1rem 0; }
footer { margin-top: 2.5rem; color: #333; font-size: .9rem; }
@media (max-width: 36rem) { dl { grid-template-columns: 1fr; } dd { margin-bottom: .5rem; } }
`;

function documentHtml(title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

/** The IVMS101 data of one transaction, as a whole HTML document. */
export function renderViewPage(d: ViewPageData): string {
  const summary: Row[] = [
    ['Reference', `<code>${escapeHtml(d.transactionRef)}</code>`],
    ['Shared by', escapeHtml(d.fromVasp)],
    [
      'Direction',
      d.direction === 'outgoing'
        ? `Outgoing: sent by a customer of ${escapeHtml(d.fromVasp)}`
        : `Incoming: received by a customer of ${escapeHtml(d.fromVasp)}`,
    ],
    ['Status', escapeHtml(d.status)],
    ['Asset', escapeHtml(d.asset)],
    ['Network', d.network !== null ? escapeHtml(d.network) : 'Not given'],
    ['Amount', `${escapeHtml(d.amount)} ${escapeHtml(d.asset)}`],
    ['Created', htmlTime(d.createdAt)],
    [
      'Transaction hash',
      d.txHash !== null ? `<code>${escapeHtml(d.txHash)}</code>` : 'Not yet sent',
    ],
  ];
  const body = `<header>
<h1>Travel rule transaction</h1>
<p>Originator and beneficiary information (IVMS101) shared by ${escapeHtml(d.fromVasp)}.</p>
</header>
<p class="notice" role="note">This page holds personal data for your compliance review. Do not forward the link. It works until ${htmlTime(d.expiresAt)}.</p>
<section aria-labelledby="summary">
<h2 id="summary">Transaction</h2>
${dl(summary)}
</section>
${partySection('Originator', 'originator', d.originator)}
${partySection('Beneficiary', 'beneficiary', d.beneficiary)}
<footer>
<p>Link valid until ${htmlTime(d.expiresAt)}. Questions about this transaction go to the compliance team of ${escapeHtml(d.fromVasp)}.</p>
</footer>`;
  return documentHtml(`Travel rule transaction ${d.transactionRef}`, body);
}

/**
 * The page for a valid link to a transaction cancelled or rejected since: its reference, and no
 * personal data (nobody needs them for a transfer that will not happen).
 */
export function renderWithdrawnPage(transactionRef: string, fromVasp: string): string {
  const title = 'This transaction no longer goes ahead';
  const body = `<h1>${escapeHtml(title)}</h1>
<p>The travel rule transaction <code>${escapeHtml(transactionRef)}</code> shared by ${escapeHtml(fromVasp)} was cancelled or rejected, so its originator and beneficiary information is no longer shown here.</p>
<p>Questions about it go to the compliance team of ${escapeHtml(fromVasp)}.</p>`;
  return documentHtml(title, body);
}

/** The page for a link that does not open: shows no transaction data at all. */
export function renderForbiddenPage(reason: 'expired' | 'invalid'): string {
  const [title, explanation] =
    reason === 'expired'
      ? [
          'This link has expired',
          'Transaction view links work for a limited time, and this one is past its expiry.',
        ]
      : [
          'This link is not valid',
          'The link is incomplete, has been altered, or does not belong to this transaction. Check that the whole link was copied from the e-mail.',
        ];
  const body = `<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(explanation)}</p>
<p>To see the travel rule information of the transaction, contact the compliance team of the VASP that sent you the e-mail and ask for a new link.</p>`;
  return documentHtml(title, body);
}
