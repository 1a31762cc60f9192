import { MFA_SECRET_COLUMN } from './operators/index.js';
import { IVMS101_COLUMN, NOTE_COLUMN, type SealedColumn } from './travelrule/index.js';

/**
 * Every column sealed with the data keyring, each described by its owner. `tollgate data-key
 * rotate|status` re-seals and counts these, and the appliance checks them at start for rows
 * under a key that is not configured: a new sealed column is added here, and only here.
 */
export const SEALED_COLUMNS: readonly SealedColumn[] = [
  IVMS101_COLUMN,
  MFA_SECRET_COLUMN,
  NOTE_COLUMN,
];
