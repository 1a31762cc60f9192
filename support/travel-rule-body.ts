/**
 * A Travel Rule create_tx body with made-up persons, for tests and benchmarks alike. Every
 * personal value is listed, so a test can look for any of them where none may appear.
 */

export const ORIGINATOR_ADDRESS = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';
export const BENEFICIARY_ADDRESS = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

/** Every personal value of travelBody() except the wallet addresses. */
export const PERSONAL_VALUES = [
  'Quennellworth',
  'Ottoline',
  '1961-04-23',
  'Zyrardowek',
  'PX7731209',
  'Wisteria Crescent',
  'Halvorsen House',
  'QX9 4ZZ',
  'Little Thornbury',
  'CUST-5566-7788',
  'Abernathy-Stroud',
  'Perpetua',
  'ID-4471-XQ',
];

export function travelBody(ref: string, extra: Record<string, unknown> = {}): Record<string, any> {
  return {
    transaction_ref: ref,
    transaction_asset: 'ETH',
    transaction_network: 'eth',
    transaction_amount: '1.25',
    transaction_asset_decimals: '18',
    originator: {
      persons: [
        {
          naturalPerson: {
            name: {
              nameIdentifier: [
                {
                  primaryIdentifier: 'Quennellworth',
                  secondaryIdentifier: 'Ottoline',
                  nameIdentifierType: 'LEGL',
                },
              ],
            },
            dateAndPlaceOfBirth: { dateOfBirth: '1961-04-23', placeOfBirth: 'Zyrardowek' },
            nationalIdentification: {
              nationalIdentifier: 'PX7731209',
              nationalIdentifierType: 'CCPT',
              countryOfIssue: 'GB',
            },
            geographicAddress: [
              {
                addressType: 'HOME',
                streetName: 'Wisteria Crescent',
                buildingNumber: '7',
                buildingName: 'Halvorsen House',
                postCode: 'QX9 4ZZ',
                townName: 'Little Thornbury',
                country: 'GB',
              },
            ],
            customerIdentification: 'CUST-5566-7788',
          },
        },
      ],
      accountNumber: [ORIGINATOR_ADDRESS],
    },
    beneficiary: {
      persons: [
        {
          naturalPerson: {
            name: {
              nameIdentifier: [
                {
                  primaryIdentifier: 'Abernathy-Stroud',
                  secondaryIdentifier: 'Perpetua',
                  nameIdentifierType: 'LEGL',
                },
              ],
            },
            nationalIdentification: {
              nationalIdentifier: 'ID-4471-XQ',
              nationalIdentifierType: 'IDCD',
              countryOfIssue: 'DE',
            },
          },
        },
      ],
      accountNumber: [BENEFICIARY_ADDRESS],
    },
    ...extra,
  };
}
