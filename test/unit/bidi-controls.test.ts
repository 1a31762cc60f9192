import { describe, expect, it } from 'vitest';
import { Party } from '../../src/dashboard/pages/ivms101.js';
import type { NormalisedParty } from '../../src/travelrule/ivms101/normalise.js';
import { renderViewPage, withVisibleControls } from '../../src/travelrule/view-page.js';

/**
 * Unicode's bidirectional controls in what another VASP sent: shown as code points on the pages
 * that show the persons, never acting (an override turned the rest of the line around, our own
 * "(family name, given names)" included; found by an outside probe).
 */
const RLO = '\u202e';
const party: NormalisedParty = {
  persons: [
    {
      naturalPerson: {
        name: {
          nameIdentifier: [
            {
              primaryIdentifier: `Benef${RLO}iciary`,
              secondaryIdentifier: `Ann\u2067e`,
              nameIdentifierType: 'LEGL',
            },
          ],
        },
        dateAndPlaceOfBirth: { dateOfBirth: '1980-01-01', placeOfBirth: `Par${RLO}is` },
        customerIdentification: `C-${RLO}42`,
      },
    },
  ],
  accountNumber: [`0xabc${RLO}def`],
};

describe('bidirectional controls', () => {
  it('are shown as their code points', () => {
    expect(withVisibleControls(`a${RLO}b\u200fc\u061cd\u2066e`)).toBe(
      'a[U+202E]b[U+200F]c[U+061C]d[U+2066]e',
    );
    // Right-to-left letters themselves are text, left as they are.
    expect(withVisibleControls('مرحبا Smith')).toBe('مرحبا Smith');
  });

  it('never act on the dashboard page or the view link page', async () => {
    const dashboard = String(await Party({ title: 'Beneficiary', slug: 'b', party }));
    const view = renderViewPage({
      transactionRef: `REF-${RLO}1`,
      direction: 'outgoing',
      status: 'OTHER_VASP_PENDING',
      asset: 'ETH',
      network: 'eth',
      amount: '1',
      createdAt: new Date('2026-01-01T00:00:00Z'),
      fromVasp: 'Acme',
      originator: party,
      beneficiary: party,
      txHash: null,
      expiresAt: new Date('2026-01-08T00:00:00Z'),
    });
    for (const html of [dashboard, view]) {
      expect(html).not.toMatch(/[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/);
      expect(html).toContain('Benef[U+202E]iciary');
      expect(html).toContain('Par[U+202E]is');
    }
    // The names are isolated from our words beside them.
    expect(dashboard).toContain('<bdi>Benef[U+202E]iciary</bdi>');
    expect(dashboard).toContain('<bdi>Ann[U+2067]e</bdi>');
    expect(dashboard).toContain('0xabc[U+202E]def');
    expect(view).toContain('REF-[U+202E]1');
  });
});
