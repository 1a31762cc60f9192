import { inquiryText, trpSend } from './trp-peer.js';

/**
 * Travel rule fixtures: a create_tx body whose personal values are distinctive strings, so a
 * test can look for them in logs, e-mails and stored bytes.
 */

export {
  BENEFICIARY_ADDRESS,
  ORIGINATOR_ADDRESS,
  PERSONAL_VALUES,
  travelBody,
} from '../../support/travel-rule-body.js';
import { travelBody } from '../../support/travel-rule-body.js';

/**
 * The statuses a transfer over TRP takes when both sides say yes, in order, as each side's
 * history records them: the originator's withdrawal, the beneficiary's deposit.
 */
export const WITHDRAWAL_COMPLETED = [
  'CREATED',
  'SCORE',
  'PENDING',
  'OTHER_VASP_PENDING',
  'OTHER_VASP_APPROVED',
  'WAITING_TX_HASH',
  'COMPLETED',
];
export const DEPOSIT_CONFIRMED = [
  'CREATED',
  'SCORE',
  'PENDING',
  'WAITING_ADDRESS_DATA',
  'WAITING_FOR_CONFIRMATION',
  'TRANSACTION_CONFIRMED',
];

/**
 * Sends a TRP transfer inquiry for travelBody()'s parties to an appliance's inquiry URL, as an
 * independent directory VASP would (test/helpers/trp-peer.ts: the protocol's shapes, 1.25 ETH
 * named by slip0044); returns the reference the incoming transaction gets there.
 */
export async function sendInquiry(
  baseUrl: string,
  token: string,
  opts: {
    callback: string;
    vaspName: string;
    /** The transfer's request-identifier (TRP's; a new UUID when not given): sent again, a retry. */
    requestId?: string;
    /** IVMS101 payloadMetadata.transliterationMethod. */
    transliterationMethod?: string[];
  },
): Promise<{
  requestId: string;
  ref: string;
  status: number;
  json: any;
  headers: Record<string, string | string[] | undefined>;
}> {
  const parties = travelBody('ignored');
  const reply = await trpSend(
    baseUrl,
    `/trp/v3/inquiries/${token}`,
    inquiryText({
      asset: { slip0044: 60 },
      amount: '1.25',
      callback: opts.callback,
      originatorPersons: parties.originator.persons,
      originatorAccounts: parties.originator.accountNumber,
      beneficiaryPersons: parties.beneficiary.persons,
      beneficiaryAccounts: parties.beneficiary.accountNumber,
      originatorVasp: opts.vaspName,
      transliterationMethod: opts.transliterationMethod,
    }),
    { requestId: opts.requestId },
  );
  return {
    requestId: reply.requestId,
    ref: `trp-${reply.requestId}`,
    status: reply.status,
    json: reply.json,
    headers: reply.headers,
  };
}
