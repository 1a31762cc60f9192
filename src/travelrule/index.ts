/**
 * The Travel Rule's face: what the API, the dashboard, the worker and the CLI use. The flows
 * (withdrawal.ts, deposit.ts, review.ts) on the lifecycle (lifecycle.ts, status.ts); messages to
 * the other VASP (sending/, trp/); the IVMS101 checks (ivms101/); the VASP directory (vasps.ts);
 * the sealed store (store.ts, crypto.ts); webhooks to the caller (webhooks.ts); the e-mailed view
 * (view-link.ts, view-page.ts). Nothing outside this folder imports a file in it but this one.
 */
export {
  DecryptionError,
  decodeDataKey,
  loadKeyring,
  openBytes,
  sealBytes,
  type Keyring,
  type Sealed,
} from './crypto.js';
export {
  countByKey,
  IVMS101_COLUMN,
  missingKey,
  missingKeys,
  refuseMissingKeys,
  resealBatch,
  type KeyCount,
  type ResealBatch,
  type SealedColumn,
} from './rekey.js';
export { countRetiredTokens, recordTokensOf, type RecordedTokens } from './retired-tokens.js';
export {
  receiveConfirmation,
  receiveInquiry,
  receiveWithoutProtocol,
  sendAddress,
} from './deposit.js';
export {
  addNote,
  assignTransaction,
  getAssignment,
  listNotes,
  NOTE_COLUMN,
  NOTE_MAX_CHARS,
  type Assignment,
  type Note,
} from './casework.js';
export { TravelRuleError } from './errors.js';
export type { TravelRuleDeps } from './flow.js';
export {
  ADDRESS_TYPES,
  LEGAL_PERSON_NAME_TYPES,
  LEGAL_PERSON_NATIONAL_IDENTIFIER_TYPES,
  NAME_IDENTIFIER_TYPES,
  NATIONAL_IDENTIFIER_TYPES,
  codeLabel,
} from './ivms101/codes.js';
export { IVMS101_MAX_CHARS } from './ivms101/fields.js';
export {
  parseTravelRuleInput,
  TravelRuleFields,
  type TravelRuleKind,
} from './ivms101/index.js';
export { CreateTxBody, ReceiveTxBody } from './ivms101/input.js';
export type { NormalisedParty } from './ivms101/normalise.js';
export type { NaturalPersonValue } from './ivms101/person.js';
export type { LegalPersonValue, PersonValue } from './ivms101/legal-person.js';
export { type PersonRow, personRows } from './ivms101/display.js';
export {
  acceptByOperator,
  CANCELLABLE_STATUSES,
  cancelByOperator,
  recordAnswerByOperator,
  rejectByOperator,
} from './review.js';
export type { PartyScreening, Screening } from './screening.js';
export { createMailer, logRelayCheck } from './sending/email.js';
export { sendMessage, type SenderDeps } from './sending/messages.js';
export { listMessages, type MessageRow, sendsIn, sendMessageAgain } from './sending/queue.js';
export { STATUSES, type Direction, type Status } from './status.js';
export {
  getTransaction,
  listHistory,
  listTransactions,
  readPayload,
  type HistoryEntry,
  type TravelRuleTransaction,
} from './store.js';
export { TrpHttpError, trpDatabaseUnavailable, trpRoutes } from './trp/server.js';
export {
  getVasp,
  inboundUrl,
  listAllVasps,
  listVasps,
  loadVaspsFile,
  removeVasp,
  rotateInboundToken,
  seedVaspsFromFile,
  storeVasps,
  upsertVasp,
  VaspConflictError,
  VaspInput,
  type Vasp,
  type VaspInputValue,
  type VaspWithToken,
} from './vasps.js';
export { identifySender, type TrpPeer } from './peer.js';
export { verifyViewToken } from './view-link.js';
export {
  renderForbiddenPage,
  renderViewPage,
  renderWithdrawnPage,
  VIEW_PAGE_HEADERS,
  withVisibleControls,
} from './view-page.js';
export {
  deleteTravelRuleWebhook,
  getTravelRuleWebhook,
  setTravelRuleWebhook,
  travelRuleEvents,
  type SealedParties,
} from './webhooks.js';
export { checkOutgoing, createOutgoing, receiveResolution, sendTxHash } from './withdrawal.js';
export { transactionStatus, type TransactionStatusView } from './status-view.js';
export { DtiTable } from './trp/assets.js';
export { leafCertificate, type TrpIdentity } from './trp/identity.js';
export { issueTravelAddress, type IssuedTravelAddress } from './travel-addresses.js';
