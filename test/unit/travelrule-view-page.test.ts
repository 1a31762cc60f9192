import { describe, expect, it } from 'vitest';
import type { NormalisedParty } from '../../src/travelrule/ivms101/normalise.js';
import {
  VIEW_PAGE_HEADERS,
  renderForbiddenPage,
  renderViewPage,
  type ViewPageData,
} from '../../src/travelrule/view-page.js';

const originator: NormalisedParty = {
  persons: [
    {
      naturalPerson: {
        name: {
          nameIdentifier: [
            {
              primaryIdentifier: '<script>alert(1)</script>Lovelace',
              secondaryIdentifier: 'Ada "Augusta"',
              nameIdentifierType: 'LEGL',
            },
            { primaryIdentifier: 'Byron', nameIdentifierType: 'BIRT' },
          ],
        },
        dateAndPlaceOfBirth: { dateOfBirth: '1815-12-10', placeOfBirth: 'London & Middlesex' },
        nationalIdentification: {
          nationalIdentifier: 'P<1234567',
          nationalIdentifierType: 'CCPT',
          countryOfIssue: 'GB',
        },
        geographicAddress: [
          {
            addressType: 'HOME',
            streetName: "St James's Square",
            buildingNumber: '12',
            postCode: 'SW1Y 4JH',
            townName: 'London',
            country: 'GB',
          },
          {
            addressType: 'BIZZ',
            addressLine: ['Analytical Engine Works', 'Floor <img src=x>'],
            country: 'DE',
          },
        ],
        customerIdentification: 'CUST-0042',
      },
    },
  ],
  accountNumber: ['0x52908400098527886E0F7030069857D2E4169EE7'],
};

const beneficiary: NormalisedParty = {
  persons: [
    {
      naturalPerson: {
        name: {
          nameIdentifier: [
            {
              primaryIdentifier: 'Babbage',
              secondaryIdentifier: 'Charles',
              nameIdentifierType: 'LEGL',
            },
          ],
        },
      },
    },
  ],
  accountNumber: ['0x8617E340B3D01FA5F11F306F4090FD50E238070D'],
};

const data: ViewPageData = {
  transactionRef: 'REF-<b>2025</b>-001',
  direction: 'outgoing',
  status: 'ACCEPTED',
  asset: 'USDT',
  network: 'eth',
  amount: '1500.25',
  createdAt: new Date('2025-06-01T10:20:30Z'),
  fromVasp: 'Acme <Exchange> & Co',
  originator,
  beneficiary,
  txHash: '0xabc123def4567890abc123def4567890abc123def4567890abc123def4567890',
  expiresAt: new Date('2025-06-08T10:20:30Z'),
};

/** Every personal or transaction value of `data`, as it appears escaped in HTML. */
const SENSITIVE = [
  'Lovelace',
  'Augusta',
  'Byron',
  'Babbage',
  'Charles',
  '1815-12-10',
  'Middlesex',
  '1234567',
  'James&#39;s Square',
  'SW1Y 4JH',
  'Analytical Engine Works',
  'CUST-0042',
  '0x52908400098527886E0F7030069857D2E4169EE7',
  '0x8617E340B3D01FA5F11F306F4090FD50E238070D',
  '1500.25',
  'USDT',
  'REF-',
  '0xabc123def',
];

describe('renderViewPage', () => {
  const html = renderViewPage(data);

  it('is a whole HTML5 document without scripts or external resources', () => {
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('<meta charset="utf-8">');
    expect(html).toMatch(
      /<title>Travel rule transaction REF-&lt;b&gt;2025&lt;\/b&gt;-001<\/title>/,
    );
    expect(html).toMatch(/<h1>/);
    expect(html.toLowerCase()).not.toContain('<script');
    expect(html).not.toMatch(/<[^>]*\s(src|href)=/i);
    expect(html).not.toMatch(/https?:\/\//);
    expect(html).not.toContain('<img');
  });

  it('escapes every value', () => {
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;Lovelace');
    expect(html).toContain('Ada &quot;Augusta&quot;');
    expect(html).toContain('London &amp; Middlesex');
    expect(html).toContain('P&lt;1234567');
    expect(html).toContain('Floor &lt;img src=x&gt;');
    expect(html).toContain('Acme &lt;Exchange&gt; &amp; Co');
    expect(html).not.toContain('<b>2025');
  });

  it('shows the transaction and every IVMS101 field', () => {
    for (const s of SENSITIVE) expect(html, s).toContain(s);
    for (const s of [
      'Originator',
      'Beneficiary',
      'Legal name (LEGL)',
      'Name at birth (BIRT)',
      'Date of birth',
      'Place of birth',
      'Passport number (CCPT)',
      'United Kingdom (GB)',
      'Residential (HOME)',
      'Business (BIZZ)',
      'Germany (DE)',
      'Customer identification',
      'SW1Y 4JH London',
      'St James&#39;s Square 12',
      'ACCEPTED',
      'eth',
      '2025-06-01 10:20:30 UTC',
    ]) {
      expect(html, s).toContain(s);
    }
    expect(html).toContain(
      '<time datetime="2025-06-08T10:20:30.000Z">2025-06-08 10:20:30 UTC</time>',
    );
  });

  it('copes with the optional parts missing', () => {
    const bare = renderViewPage({
      ...data,
      network: null,
      txHash: null,
      direction: 'incoming',
      beneficiary: { persons: beneficiary.persons, accountNumber: [] },
    });
    expect(bare).toContain('Babbage');
    expect(bare).toContain('Not yet sent');
    expect(bare).toContain('Incoming');
  });
});

describe('renderForbiddenPage', () => {
  it('says why, suggests contacting the sending VASP, and shows no data', () => {
    for (const reason of ['expired', 'invalid'] as const) {
      const html = renderForbiddenPage(reason);
      expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
      expect(html).toContain(reason === 'expired' ? 'expired' : 'not valid');
      expect(html).toMatch(/contact the compliance team of the VASP/);
      expect(html.toLowerCase()).not.toContain('<script');
      for (const s of SENSITIVE) expect(html, s).not.toContain(s);
    }
  });
});

describe('VIEW_PAGE_HEADERS', () => {
  it('locks the page down', () => {
    expect(VIEW_PAGE_HEADERS['content-security-policy']).toBe(
      "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
    );
    expect(VIEW_PAGE_HEADERS).toMatchObject({
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store',
      'x-frame-options': 'DENY',
    });
  });
});
