import { PermanentError } from '../errors.js';
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ConfigError } from '../config/index.js';
import { log } from '../log.js';
import { warnIfReadable } from '../secret-files.js';

/**
 * Encryption at rest of the IVMS101 payload (personal data) of travel rule transactions.
 *
 * AES-256-GCM, a fresh random 12-byte nonce per encryption, the 16-byte tag appended to the
 * ciphertext, and associated data that binds the ciphertext to its row id: a ciphertext copied
 * into another row fails authentication, as does any change to a byte of it.
 *
 * Keys: the current key encrypts; every key of the keyring decrypts. Each row stores the id of
 * the key that sealed it (KEY_ID_HEX_CHARS hex of SHA-256 over a label and the key), so a key is
 * found by id and never by trying. The current key is config `data_key` (TOLLGATE_DATA_KEY), else
 * `<data dir>/data.key`, generated once with mode 0600. Rotation: set TOLLGATE_DATA_KEY to a new
 * key and the old one in TOLLGATE_DATA_KEYS_OLD (comma-separated); an existing data.key is always
 * kept for reading, so moving from the generated file to a configured key needs nothing more.
 */

export const DATA_KEY_BYTES = 32;
export const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const KEY_ID_HEX_CHARS = 16;
export const DATA_KEY_FILE = 'data.key';

export interface DataKey {
  id: string;
  key: Buffer;
}

export interface Keyring {
  /** Encrypts new rows. */
  current: DataKey;
  /** Every key that may decrypt (the current one included), by id. */
  byId: ReadonlyMap<string, DataKey>;
}

export interface Sealed {
  ciphertext: Buffer;
  nonce: Buffer;
  keyId: string;
}

/** No data key is configured where one must already exist (loadKeyring with create: false). */
export class NoDataKeyError extends PermanentError {}

/** Decryption failed: tampered bytes, a ciphertext from another row, or a missing key. Never retryable. */
export class DecryptionError extends PermanentError {
  constructor(message: string) {
    super(message);
    this.name = 'DecryptionError';
  }
}

export function keyId(key: Buffer): string {
  return createHash('sha256')
    .update('tollgate-data-key-id\0')
    .update(key)
    .digest('hex')
    .slice(0, KEY_ID_HEX_CHARS);
}

/** Decodes a base64 data key; throws (naming `what`, never the value) unless it is 32 bytes. */
export function decodeDataKey(base64: string, what: string): DataKey {
  const text = base64.trim();
  const key = Buffer.from(text, 'base64');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text) || key.length !== DATA_KEY_BYTES) {
    throw new ConfigError(
      `${what}: must be the base64 of ${DATA_KEY_BYTES} random bytes (e.g. openssl rand -base64 32)`,
    );
  }
  return { id: keyId(key), key };
}

/** Reads `<dataDir>/data.key`, creating it (mode 0600, exclusively: two processes agree) once. */
export function readOrCreateKeyFile(dataDir: string): DataKey {
  const root = resolve(dataDir);
  const file = join(root, DATA_KEY_FILE);
  mkdirSync(root, { recursive: true, mode: 0o700 });
  try {
    writeFileSync(file, randomBytes(DATA_KEY_BYTES).toString('base64') + '\n', {
      mode: 0o600,
      flag: 'wx',
    });
    log.info({ path: file }, 'generated the travel rule data key; back it up with the database');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  return readKeyFile(file);
}

function readKeyFile(file: string): DataKey {
  warnIfReadable(file, 'data key file', 'group-or-others');
  return decodeDataKey(readFileSync(file, 'utf8'), file);
}

/**
 * The keyring from configuration: `dataKey` (base64) or the key file as current, plus the old
 * keys and any existing key file for reading. Without either, the key file is made, unless
 * `create` is false (a command that only reads or re-seals what is stored): then a
 * NoDataKeyError, since a new key would open nothing stored.
 */
export function loadKeyring(options: {
  dataKey?: string;
  dataKeysOld?: readonly string[];
  dataDir: string;
  create?: boolean;
}): Keyring {
  const file = join(resolve(options.dataDir), DATA_KEY_FILE);
  if (!options.dataKey && options.create === false && !fileExists(file))
    throw new NoDataKeyError(
      `no data key: TOLLGATE_DATA_KEY is not set and ${file} does not exist (is TOLLGATE_DATA_DIR the appliance's?); nothing was done`,
    );
  const current = options.dataKey
    ? decodeDataKey(options.dataKey, 'TOLLGATE_DATA_KEY')
    : readOrCreateKeyFile(options.dataDir);
  const old = (options.dataKeysOld ?? []).map((k) => decodeDataKey(k, 'TOLLGATE_DATA_KEYS_OLD'));
  if (options.dataKey && fileExists(file)) old.push(readKeyFile(file));
  return makeKeyring(current, old);
}

export function makeKeyring(current: DataKey, old: readonly DataKey[] = []): Keyring {
  const byId = new Map<string, DataKey>();
  for (const k of [current, ...old]) byId.set(k.id, k);
  return { current, byId };
}

function fileExists(file: string): boolean {
  try {
    statSync(file);
    return true;
  } catch {
    return false;
  }
}

/** Associated data: what the ciphertext is (table, column, format version) and whose it is. */
export function associatedData(rowId: string): string {
  return `tollgate:travelrule_transactions.ivms101:v1:${rowId}`;
}

/** Encrypts `payload` (JSON) for row `rowId` with the current key. */
export function sealPayload(keyring: Keyring, rowId: string, payload: unknown): Sealed {
  return sealBytes(keyring, associatedData(rowId), Buffer.from(JSON.stringify(payload), 'utf8'));
}

/** Decrypts the payload of row `rowId`; a DecryptionError when it cannot be authenticated. */
export function openPayload(keyring: Keyring, rowId: string, sealed: Sealed): unknown {
  const plain = openBytes(
    keyring,
    associatedData(rowId),
    sealed,
    `travel rule payload of ${rowId}`,
  );
  return JSON.parse(plain.toString('utf8')) as unknown;
}

/**
 * Encrypts other secrets at rest with the same keyring (operators' TOTP secrets): `context` is
 * the associated data, naming what the bytes are and whose (`tollgate:<table>.<column>:v1:<id>`),
 * so a ciphertext moved to another row or column fails to open.
 */
export function sealBytes(keyring: Keyring, context: string, plain: Buffer): Sealed {
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', keyring.current.key, nonce, {
    authTagLength: TAG_BYTES,
  });
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const body = Buffer.concat([cipher.update(plain), cipher.final()]);
  return {
    ciphertext: Buffer.concat([body, cipher.getAuthTag()]),
    nonce,
    keyId: keyring.current.id,
  };
}

/** Decrypts what sealBytes sealed with the same `context`; a DecryptionError naming `what` otherwise. */
export function openBytes(keyring: Keyring, context: string, sealed: Sealed, what: string): Buffer {
  const key = keyring.byId.get(sealed.keyId);
  if (!key)
    throw new DecryptionError(
      `${what}: data key ${sealed.keyId} is not in the keyring (add it to TOLLGATE_DATA_KEYS_OLD)`,
    );
  if (sealed.nonce.length !== NONCE_BYTES || sealed.ciphertext.length < TAG_BYTES)
    throw new DecryptionError(`${what}: malformed ciphertext`);
  const decipher = createDecipheriv('aes-256-gcm', key.key, sealed.nonce, {
    authTagLength: TAG_BYTES,
  });
  decipher.setAAD(Buffer.from(context, 'utf8'));
  decipher.setAuthTag(sealed.ciphertext.subarray(sealed.ciphertext.length - TAG_BYTES));
  try {
    return Buffer.concat([
      decipher.update(sealed.ciphertext.subarray(0, sealed.ciphertext.length - TAG_BYTES)),
      decipher.final(),
    ]);
  } catch {
    throw new DecryptionError(
      `${what}: authentication failed (altered, moved from another row, or sealed with another key)`,
    );
  }
}
