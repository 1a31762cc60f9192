import type { RouteExample } from '../route.js';

/**
 * The travel rule routes' examples for the OpenAPI document: one withdrawal (check_tx, create_tx,
 * send_tx_hash, tx_status), one deposit over TRP (send_address) and one without a protocol (its
 * originator a company, an IVMS101 legal person).
 * Recorded from a real appliance (test/openapi-contract.test.ts checks them against its
 * answers), with tidied values; every person is made up.
 */

const WITHDRAWAL_REF = 'wd-2025-000142';
/** Northwind Digital Assets, the beneficiary VASP of the withdrawal (list_vasps). */
const NORTHWIND_UID = '2b548b81-d088-4b46-8e91-636d14a6c191';

const WITHDRAWAL = {
  transaction_ref: WITHDRAWAL_REF,
  transaction_asset: 'ETH',
  transaction_network: 'eth',
  transaction_amount: '0.85',
  transaction_asset_decimals: '18',
  beneficiary_vasp_id: NORTHWIND_UID,
  originator: {
    persons: [
      {
        naturalPerson: {
          name: {
            nameIdentifier: [
              { primaryIdentifier: 'Doe', secondaryIdentifier: 'Jane', nameIdentifierType: 'LEGL' },
            ],
          },
          dateAndPlaceOfBirth: { dateOfBirth: '1980-01-01', placeOfBirth: 'Exampleville' },
          nationalIdentification: {
            nationalIdentifier: 'X0000000',
            nationalIdentifierType: 'CCPT',
            countryOfIssue: 'GB',
          },
          geographicAddress: [
            {
              addressType: 'HOME',
              streetName: 'Example Street',
              buildingNumber: '1',
              postCode: 'AB1 2CD',
              townName: 'Exampleville',
              country: 'GB',
            },
          ],
          customerIdentification: 'CUST-000123',
        },
      },
    ],
    accountNumber: ['0xBE9C99350DFA61d32e8A3b94948F58e723ebb1e1'],
  },
  beneficiary: {
    persons: [
      {
        naturalPerson: {
          name: {
            nameIdentifier: [
              {
                primaryIdentifier: 'Roe',
                secondaryIdentifier: 'Richard',
                nameIdentifierType: 'LEGL',
              },
            ],
          },
        },
      },
    ],
    accountNumber: ['0xF29047aeA3D07514A7ead2bAa9bD036d33065cfD'],
  },
};

export const CREATE_TX_EXAMPLE: RouteExample = { body: WITHDRAWAL, data: 'PENDING' };

/** With thresholds for two jurisdictions (travel_rule.thresholds), one with an ETH rate. */
export const CHECK_TX_EXAMPLE: RouteExample = {
  body: WITHDRAWAL,
  data: {
    valid: true,
    network: 'eth',
    screening: {
      originator: { score: 10, tags: { new_wallet: true } },
      beneficiary: { score: 10, tags: { new_wallet: true } },
    },
    threshold: [
      {
        jurisdiction: 'DE',
        currency: 'EUR',
        threshold: '1000',
        result: 'above',
        value: '2635',
        rate: '3100',
      },
      { jurisdiction: 'CH', currency: 'CHF', threshold: '1000', result: 'unknown' },
    ],
  },
};

export const TRAVEL_ADDRESS_EXAMPLE: RouteExample = {
  body: { network: 'eth', address: '0x80849C78924daa9AD2608B7C0080Df2BEF3Dc990' },
  data: {
    travel_address:
      'ta3xNEaPkEe9EyerCBPPYAEEF9mMwM3bhdnHdsNCcZvNXxcAXysb4mhTiSTm3pDpeJqcujRJjWFZUNcpCxAcY5GkSgBFUCb7XvotdkTq5NTF7sPhN5fpvydTDz6a1vyNd1qB9qihQEY9ubFHYUDynocxQk3VZ9mm3mmQounemtaLToU67atLCJMuKMrF7f9',
    url: 'https://tollgate.vasp.example/trp/v3/inquiries/fb846422cf28e918de6ae4e0e59a47cda5817d5ad2a28ff8pv7DbIzasdQT3hltcd5tr4gLdwXhFX5H3fbFLlJ_Phw',
    network: 'eth',
    address: '0x80849c78924daa9ad2608b7c0080df2bef3dc990',
  },
};

/**
 * The withdrawal after its way through: accepted, approved by e-mail (an operator recorded the
 * beneficiary VASP's answer with the address it approved, the account create_tx named), its
 * hash sent.
 */
export const TX_STATUS_EXAMPLE: RouteExample = {
  query: { transaction_ref: WITHDRAWAL_REF },
  data: {
    transaction_ref: WITHDRAWAL_REF,
    direction: 'outgoing',
    status: 'COMPLETED',
    asset: 'ETH',
    network: 'eth',
    amount: '0.85',
    tx_hash: '0xb111665a061fe55935e9fe23406d6e1b4d5a6bd596207c35dff194a936207dda',
    counterparty_vasp_id: NORTHWIND_UID,
    counterparty_protocol: 'email',
    counterparty_reason: null,
    counterparty_stated_name: null,
    counterparty_stated_lei: null,
    counterparty_transliteration: null,
    beneficiary_address: '0xf29047aea3d07514a7ead2baa9bd036d33065cfd',
    beneficiary_address_differs: false,
    created_at: '2025-03-14T10:02:17.431Z',
    updated_at: '2025-03-14T13:48:05.902Z',
    history: [
      {
        from_status: null,
        status: 'CREATED',
        actor_type: 'api_key',
        at: '2025-03-14T10:02:17.433Z',
      },
      {
        from_status: 'CREATED',
        status: 'SCORE',
        actor_type: 'system',
        at: '2025-03-14T10:02:17.436Z',
      },
      {
        from_status: 'SCORE',
        status: 'PENDING',
        actor_type: 'system',
        at: '2025-03-14T10:02:17.440Z',
      },
      {
        from_status: 'PENDING',
        status: 'OTHER_VASP_PENDING',
        actor_type: 'operator',
        at: '2025-03-14T10:19:42.118Z',
      },
      {
        from_status: 'OTHER_VASP_PENDING',
        status: 'OTHER_VASP_APPROVED',
        actor_type: 'operator',
        at: '2025-03-14T13:31:09.675Z',
      },
      {
        from_status: 'OTHER_VASP_APPROVED',
        status: 'WAITING_TX_HASH',
        actor_type: 'system',
        at: '2025-03-14T13:31:09.679Z',
      },
      {
        from_status: 'WAITING_TX_HASH',
        status: 'COMPLETED',
        actor_type: 'api_key',
        at: '2025-03-14T13:48:05.902Z',
      },
    ],
    messages: [
      {
        kind: 'email_inquiry',
        status: 'sent',
        attempts: 1,
        last_status: null,
        last_error: null,
        sent_at: '2025-03-14T10:19:43.260Z',
      },
      {
        kind: 'email_tx_hash',
        status: 'sent',
        attempts: 1,
        last_status: null,
        last_error: null,
        sent_at: '2025-03-14T13:48:06.514Z',
      },
    ],
  },
};

export const SEND_TX_HASH_EXAMPLE: RouteExample = {
  body: {
    transaction_ref: WITHDRAWAL_REF,
    transaction_hash: '0xb111665a061fe55935e9fe23406d6e1b4d5a6bd596207c35dff194a936207dda',
  },
  data: null,
};

export const LIST_VASPS_EXAMPLE: RouteExample = {
  query: { page: '1', limit: '10' },
  data: [
    {
      uid: '3d7f52c1-8a4e-4b0f-9c61-2f5e8d9a7b40',
      name: 'Harbor Exchange',
      legal_name: null,
      country: null,
      website: 'https://harbor.example',
    },
    {
      uid: NORTHWIND_UID,
      name: 'Northwind Digital Assets',
      legal_name: 'Northwind Digital Assets GmbH',
      country: 'DE',
      website: 'https://northwind.example',
    },
  ],
  page_count: 1,
};

export const SEND_ADDRESS_EXAMPLE: RouteExample = {
  body: {
    transaction_ref: 'trp-418836c0-62f5-4ef4-819c-1a97dbaff4de',
    address: '0x95b47f723Fc7209bFC04a91c66CA1705d1dCDF84',
  },
  data: null,
};

export const RECEIVE_WITHOUT_PROTOCOL_EXAMPLE: RouteExample = {
  body: {
    transaction_ref: 'dep-2025-000388',
    transaction_asset: 'ETH',
    transaction_network: 'eth',
    transaction_amount: '2.4',
    transaction_asset_decimals: '18',
    originator: {
      persons: [
        {
          // A company (IVMS101 LegalPerson); the beneficiary below is a natural person.
          legalPerson: {
            name: {
              nameIdentifier: [
                {
                  legalPersonName: 'Sampletown Trading Ltd',
                  legalPersonNameIdentifierType: 'LEGL',
                },
              ],
            },
            nationalIdentification: {
              nationalIdentifier: '12345678',
              nationalIdentifierType: 'RAID',
              registrationAuthority: 'RA000585',
            },
            countryOfRegistration: 'GB',
          },
        },
      ],
      accountNumber: ['0x0AD7818f5562D699B785f6F810e7A8f3d28D5cBf'],
    },
    beneficiary: {
      persons: [
        {
          naturalPerson: {
            name: {
              nameIdentifier: [
                {
                  primaryIdentifier: 'Doe',
                  secondaryIdentifier: 'Jane',
                  nameIdentifierType: 'LEGL',
                },
              ],
            },
          },
        },
      ],
      accountNumber: ['0xd350aD06b41A26644847C869042E908efdE936b8'],
    },
    transaction_hash: '0x719d3da5898cdccf2aa829afaa2494ce65506f86fab5f227324465cd445942a1',
    created_at: '2025-03-14T08:15:00Z',
  },
  data: 'APPROVED',
};

const TRAVEL_RULE_WEBHOOK = 'https://backend.example.com/hooks/travel-rule';

export const SET_WEBHOOK_EXAMPLE: RouteExample = { body: { url: TRAVEL_RULE_WEBHOOK }, data: null };

export const GET_WEBHOOK_EXAMPLE: RouteExample = {
  data: { url: TRAVEL_RULE_WEBHOOK, source: 'key' },
};

export const DELETE_WEBHOOK_EXAMPLE: RouteExample = { data: null };
