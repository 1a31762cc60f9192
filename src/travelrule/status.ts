/** The words of a Travel Rule transaction's life: its statuses, directions and who moves it (lifecycle.ts says which moves are allowed). */

export const STATUSES = [
  'CREATED',
  'REJECTED',
  'APPROVED',
  'COMPLETED',
  'SCORE',
  'PENDING',
  'WAITING_TX_HASH',
  'OTHER_VASP_PENDING',
  'OTHER_VASP_APPROVED',
  'OTHER_VASP_REJECTED',
  'WAITING_ADDRESS_DATA',
  'WAITING_FOR_CONFIRMATION',
  'TRANSACTION_CONFIRMED',
] as const;
export type Status = (typeof STATUSES)[number];

export type Direction = 'outgoing' | 'incoming';
export type ActorType = 'api_key' | 'operator' | 'counterparty' | 'system';

/** Who moves a transaction: an API key id, an operator's login, a VASP id, a worker's name. */
export interface Actor {
  type: ActorType;
  id: string;
}
