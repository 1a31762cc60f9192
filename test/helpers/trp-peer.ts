import { randomUUID } from 'node:crypto';
import { call, type Reply } from './http.js';

/**
 * A TRP v3.1 counterparty written from the protocol's documents (the OpenVASP specification and
 * the message shapes of TRISA's pkg/openvasp), not from Tollgate's own TRP module: what an
 * independent originator VASP puts on the wire. Bodies are JSON text built here, so amounts go
 * out exactly as written (a JSON number in whole units of the asset).
 */

export const TRP_API_VERSION = '3.1.0';

/** IVMS101 natural person as TRP carries it: name identifiers, optional details. */
export function naturalPerson(
  primary: string,
  secondary?: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    naturalPerson: {
      name: {
        nameIdentifier: [
          {
            primaryIdentifier: primary,
            ...(secondary ? { secondaryIdentifier: secondary } : {}),
            nameIdentifierType: 'LEGL',
          },
        ],
      },
      ...extra,
    },
  };
}

export interface InquiryParts {
  /** The `asset` object as the peer writes it: {slip0044: 60}, {slip0044: "ETH"}, {dti: "…"}. */
  asset: Record<string, unknown>;
  /** The amount's JSON number text, written as is ("1.25", "0.000021", "1e-7"). */
  amount: string;
  callback: string;
  originatorAccounts?: string[];
  beneficiaryAccounts?: string[];
  originatorVasp?: string;
  /** The originating VASP's LEI, sent as its national identification (type LEIX). */
  originatorVaspLei?: string;
  /** IVMS101 payloadMetadata.transliterationMethod: how the names were transliterated. */
  transliterationMethod?: string[];
  /** IVMS101 persons; default: one natural person each side. */
  originatorPersons?: unknown[];
  beneficiaryPersons?: unknown[];
}

/** A transfer inquiry body as JSON text. */
export function inquiryText(p: InquiryParts): string {
  const ivms = {
    originator: {
      originatorPersons: p.originatorPersons ?? [
        naturalPerson('Quennellworth', 'Ottoline', {
          geographicAddress: [
            {
              addressType: 'HOME',
              streetName: 'Wisteria Crescent',
              buildingNumber: '7',
              postCode: 'QX9 4ZZ',
              townName: 'Little Thornbury',
              country: 'GB',
            },
          ],
          customerIdentification: 'CUST-5566-7788',
        }),
      ],
      ...(p.originatorAccounts ? { accountNumber: p.originatorAccounts } : {}),
    },
    beneficiary: {
      beneficiaryPersons: p.beneficiaryPersons ?? [naturalPerson('Abernathy-Stroud', 'Perpetua')],
      ...(p.beneficiaryAccounts ? { accountNumber: p.beneficiaryAccounts } : {}),
    },
    originatingVASP: {
      originatingVASP: {
        legalPerson: {
          name: {
            nameIdentifier: [
              {
                legalPersonName: p.originatorVasp ?? 'Independent Originator AG',
                legalPersonNameIdentifierType: 'LEGL',
              },
            ],
          },
          ...(p.originatorVaspLei
            ? {
                nationalIdentification: {
                  nationalIdentifier: p.originatorVaspLei,
                  nationalIdentifierType: 'LEIX',
                },
              }
            : {}),
        },
      },
    },
    ...(p.transliterationMethod
      ? { payloadMetadata: { transliterationMethod: p.transliterationMethod } }
      : {}),
  };
  // Written by hand around the amount: JSON.stringify cannot write 1.000000000000000001.
  return `{"asset":${JSON.stringify(p.asset)},"amount":${p.amount},"callback":${JSON.stringify(p.callback)},"IVMS101":${JSON.stringify(ivms)}}`;
}

/** POSTs a TRP message with the protocol's headers; the request-identifier names the transfer. */
export function trpSend(
  baseUrl: string,
  path: string,
  body: string,
  opts: {
    requestId?: string;
    apiVersion?: string;
    /** The peer's TLS client certificate (TRP's mutual TLS), PEM. */
    clientCert?: { cert: string; key: string };
  } = {},
): Promise<Reply & { requestId: string }> {
  const requestId = opts.requestId ?? randomUUID();
  return call(baseUrl, 'POST', path, {
    headers: {
      'api-version': opts.apiVersion ?? TRP_API_VERSION,
      'request-identifier': requestId,
    },
    body,
    ...(opts.clientCert ? { clientCert: opts.clientCert } : {}),
  }).then((reply) => ({ ...reply, requestId }));
}
