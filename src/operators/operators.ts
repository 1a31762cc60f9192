import { recordAudit } from '../audit/index.js';
import { PermanentError } from '../errors.js';
import type { Sql } from '../db/index.js';
import { generatePassword, hashPassword, verifyPassword } from './password.js';
import { revokeOperatorSessions } from './sessions.js';
import { isOperatorRole, type Operator, OPERATOR_ROLES, type OperatorRole } from './roles.js';

export {
  isOperatorRole,
  OPERATOR_ROLES,
  roleAllows,
  type Operator,
  type OperatorRole,
} from './roles.js';

/**
 * Operators of the compliance team (table `operators`): people who review travel rule
 * transactions in the dashboard. Separate from API keys; created and managed with
 * `tollgate operators …`.
 */

export const MIN_PASSWORD_LENGTH = 12;
/** Longer passwords are refused rather than hashed (scrypt cost grows with the input). */
export const MAX_PASSWORD_LENGTH = 1024;

const LOGIN = /^[a-z0-9._@-]{3,64}$/;

/** An operator request that cannot succeed as given (bad login, short password, duplicate). */
export class OperatorInputError extends PermanentError {
  constructor(message: string) {
    super(message);
    this.name = 'OperatorInputError';
  }
}

/**
 * Verified against when the login is unknown, so that an unknown login costs the same scrypt
 * as a known one. The password it hashes was random and is not kept.
 */
const DUMMY_HASH =
  'scrypt$32768$8$1$/AN2Jxx2gs9P6HWupjm/BQ==$zuv4Wp3RU2BwIqKWhMCqELqRUmdgBSIbbIYf/6qnc5s=';

function normaliseLogin(login: string): string {
  const lower = login.trim().toLowerCase();
  if (!LOGIN.test(lower))
    throw new OperatorInputError('The login must be 3 to 64 characters of a-z, 0-9 and . _ @ -.');
  return lower;
}

/** A new password's length, or an OperatorInputError saying what is wrong with it. */
export function checkNewPassword(password: string): void {
  if (password.length < MIN_PASSWORD_LENGTH)
    throw new OperatorInputError(
      `The password must be at least ${MIN_PASSWORD_LENGTH} characters.`,
    );
  if (password.length > MAX_PASSWORD_LENGTH)
    throw new OperatorInputError(`The password must be at most ${MAX_PASSWORD_LENGTH} characters.`);
}

export async function createOperator(
  sql: Sql,
  login: string,
  role: OperatorRole,
  password?: string,
): Promise<Operator & { password: string }> {
  const normal = normaliseLogin(login);
  if (!isOperatorRole(role))
    throw new OperatorInputError(`The role must be one of ${OPERATOR_ROLES.join(', ')}.`);
  if (password !== undefined) checkNewPassword(password);
  const secret = password ?? generatePassword();
  const hash = await hashPassword(secret);
  const [row] = await sql<{ id: string }[]>`
    insert into operators (login, password_hash, role) values (${normal}, ${hash}, ${role})
    on conflict (login) do nothing
    returning id`;
  if (!row) throw new OperatorInputError(`An operator with login "${normal}" exists already.`);
  return { id: row.id, login: normal, role, password: secret };
}

export type AuthenticationResult =
  | { ok: true; operator: Operator }
  /** `login` only when it names an operator: what was typed otherwise may be a password. */
  | { ok: false; reason: 'invalid' | 'disabled'; login?: string };

interface OperatorRow extends Operator {
  password_hash: string;
  disabled: boolean;
}

/**
 * Checks a login and password. Exactly one scrypt verification whatever the case (an unknown
 * login is checked against DUMMY_HASH, a disabled operator against their own hash), so the time
 * taken says nothing of which logins exist. No account is ever locked here: a stranger's wrong
 * guesses must not keep the operator out; login attempts are limited per client address
 * instead (limits.ts, login.ts).
 */
export async function authenticateOperator(
  sql: Sql,
  login: string,
  password: string,
): Promise<AuthenticationResult> {
  const normal = login.trim().toLowerCase();
  const [row] =
    LOGIN.test(normal) && password.length <= MAX_PASSWORD_LENGTH
      ? await sql<OperatorRow[]>`
        select id, login, role, password_hash, disabled_at is not null as disabled
        from operators where login = ${normal}`
      : [];
  const right = await verifyPassword(
    password.slice(0, MAX_PASSWORD_LENGTH),
    row?.password_hash ?? DUMMY_HASH,
  );
  if (!row) return { ok: false, reason: 'invalid' };
  if (row.disabled) return { ok: false, reason: 'disabled', login: row.login };
  if (!right) return { ok: false, reason: 'invalid', login: row.login };
  return { ok: true, operator: { id: String(row.id), login: row.login, role: row.role } };
}

export interface OperatorListing extends Operator {
  created_at: Date;
  disabled_at: Date | null;
  /** A confirmed second factor (TOTP). */
  mfa: boolean;
}

export async function listOperators(sql: Sql): Promise<OperatorListing[]> {
  const rows = await sql<OperatorListing[]>`
    select o.id, o.login, o.role, o.created_at, o.disabled_at, m.confirmed_at is not null as mfa
    from operators o left join operator_mfa m on m.operator_id = o.id
    order by o.login`;
  return rows.map((r) => ({ ...r, id: String(r.id) }));
}

/**
 * Disables an active operator for good (the row stays for the history's actor ids); every
 * session of theirs ends. False when there is no such active operator.
 */
export async function disableOperator(
  sql: Sql,
  login: string,
  audit: { actor: string },
): Promise<boolean> {
  return (await sql.begin(async (tx) => {
    const [row] = await tx<{ id: string; login: string }[]>`
      update operators set disabled_at = now()
      where login = ${login.trim().toLowerCase()} and disabled_at is null returning id, login`;
    if (!row) return false;
    await recordAudit(tx, { actor: audit.actor, action: 'operator_disable', target: row.login });
    await revokeOperatorSessions(tx, String(row.id), {
      actor: audit.actor,
      login: row.login,
      reason: 'operator_disable',
    });
    return true;
  })) as boolean;
}

/**
 * Sets a new password (the given one, else a generated one) and ends every session of the
 * operator (the dashboard's and the operator API's). Returns the new password, or undefined when
 * there is no such operator. A disabled operator stays disabled.
 */
export async function resetOperatorPassword(
  sql: Sql,
  login: string,
  audit: { actor: string },
  password?: string,
): Promise<string | undefined> {
  if (password !== undefined) checkNewPassword(password);
  const secret = password ?? generatePassword();
  const hash = await hashPassword(secret);
  return (await sql.begin(async (tx) => {
    const [row] = await tx<{ id: string; login: string }[]>`
      update operators set password_hash = ${hash}
      where login = ${login.trim().toLowerCase()} returning id, login`;
    if (!row) return undefined;
    await recordAudit(tx, {
      actor: audit.actor,
      action: 'operator_reset_password',
      target: row.login,
    });
    await revokeOperatorSessions(tx, String(row.id), {
      actor: audit.actor,
      login: row.login,
      reason: 'operator_reset_password',
    });
    return secret;
  })) as string | undefined;
}

/**
 * An operator's own new password, once the caller has checked their current one (within the
 * login limits: src/operators/login.ts checkPassword). Every session of theirs ends (the caller
 * opens a new one for the browser at hand). An OperatorInputError when the new one is too short
 * or too long.
 */
export async function setOwnPassword(sql: Sql, operator: Operator, next: string): Promise<void> {
  checkNewPassword(next);
  const hash = await hashPassword(next);
  await sql.begin(async (tx) => {
    await tx`update operators set password_hash = ${hash} where id = ${operator.id}`;
    await recordAudit(tx, {
      actor: operator.login,
      action: 'password_change',
      target: operator.login,
    });
    await revokeOperatorSessions(tx, operator.id, {
      actor: operator.login,
      login: operator.login,
      reason: 'password_change',
    });
  });
}
