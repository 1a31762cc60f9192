import type { FC } from 'hono/jsx';
import type { Status } from '../travelrule/index.js';

/**
 * The travel rule statuses in a compliance officer's words (src/travelrule/lifecycle.ts has
 * what each means in the flow). The pages show the words with the status's name beside them:
 * the name is what the API, the webhooks and the CSV export carry.
 */
export const STATUS_WORDS: Record<Status, string> = {
  CREATED: 'Received, not screened yet',
  SCORE: 'Being screened',
  PENDING: 'Waiting for your review',
  REJECTED: 'Rejected or cancelled by us',
  APPROVED: 'Deposit recorded (no protocol to answer)',
  COMPLETED: "Completed: our backend sent the transaction's hash",
  WAITING_TX_HASH: "Approved by the beneficiary VASP: waiting for our backend's transaction hash",
  OTHER_VASP_PENDING: "Sent: waiting for the beneficiary VASP's answer",
  OTHER_VASP_APPROVED: 'Approved by the beneficiary VASP',
  OTHER_VASP_REJECTED: 'Rejected by the other VASP, or it could not be reached',
  WAITING_ADDRESS_DATA: "Accepted: waiting for our backend's deposit address",
  WAITING_FOR_CONFIRMATION: "Answered: waiting for the originator VASP's transaction hash",
  TRANSACTION_CONFIRMED: 'Confirmed: the originator VASP sent the transaction hash',
};

/** The status in words, its name beside them. */
export const StatusText: FC<{ status: Status; strong?: boolean }> = ({ status, strong }) => (
  <span class="tr-status" data-status={status}>
    {strong ? <strong>{STATUS_WORDS[status]}</strong> : STATUS_WORDS[status]}{' '}
    <code class="muted">{status}</code>
  </span>
);
