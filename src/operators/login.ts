import { recordAudit } from '../audit/index.js';
import type { Sql } from '../db/index.js';
import { log } from '../log.js';
import type { Keyring } from '../travelrule/index.js';
import { HashingBusyError } from './hashing.js';
import { checkSecondFactor, mfaState } from './mfa.js';
import { authenticateOperator } from './operators.js';
import { mfaRequired, type OperatorPolicy } from './policy.js';
import type { Operator } from './roles.js';

/**
 * A login's two steps as the dashboard and the operator API both take them, within the limits of
 * limits.ts. A refusal says the same whether or not the login exists: 'invalid' after a check,
 * 'limited' (with the seconds to wait) before one, applied to any login typed; 'busy' when the
 * hashing queue is full (hashing.ts). Failed attempts are audited (login_failed) with the client
 * address, and with the login only when it names an operator: a password typed into the login
 * field by mistake is never stored, nor logged. No password or code is ever logged.
 */

export type Via = 'dashboard' | 'api';

export type Refusal = { ok: false; reason: 'invalid' | 'limited' | 'busy'; retryAfterS?: number };

/** What the operator must still do after the password: nothing, a code, or enrol. */
export type SecondStep = 'none' | 'code' | 'enrol';

export type PasswordOutcome = { ok: true; operator: Operator; next: SecondStep } | Refusal;

const UNKNOWN_ACTOR = '(unknown login)';

function limited(client: string | undefined, via: Via, retryAfterS: number): Refusal {
  log.info(
    { client, via, outcome: 'limited', retry_after_s: retryAfterS },
    'operator login limited',
  );
  return { ok: false, reason: 'limited', retryAfterS };
}

/** The first step: login and password, then what the second factor asks of this operator. */
export async function checkPassword(
  sql: Sql,
  policy: OperatorPolicy,
  input: {
    login: string;
    password: string;
    client: string | undefined;
    via: Via;
    /** What the password is asked for: a login (the default), or a change of it (the current one). */
    step?: 'password' | 'current_password';
  },
): Promise<PasswordOutcome> {
  const { client, via } = input;
  const admission = policy.limiter.admit(client, input.login);
  if (!admission.ok) return limited(client, via, admission.retryAfterS);
  let result: Awaited<ReturnType<typeof authenticateOperator>>;
  try {
    result = await authenticateOperator(sql, input.login, input.password);
  } catch (err) {
    admission.attempt.abandoned();
    if (err instanceof HashingBusyError) {
      log.warn({ client, via }, 'operator login refused: password hashing is busy');
      return { ok: false, reason: 'busy', retryAfterS: 1 };
    }
    throw err;
  }
  if (!result.ok) {
    await recordAudit(sql, {
      actor: result.login ?? UNKNOWN_ACTOR,
      action: 'login_failed',
      details: {
        step: input.step ?? 'password',
        reason: result.reason,
        client: client ?? null,
        via,
      },
    });
    log.info(
      { login: result.login, client, via, outcome: result.reason, step: input.step ?? 'password' },
      'operator login refused',
    );
    await admission.attempt.failed();
    return { ok: false, reason: 'invalid' };
  }
  admission.attempt.succeeded();
  const { operator } = result;
  const { enrolled } = await mfaState(sql, operator.id);
  const next: SecondStep = enrolled
    ? 'code'
    : mfaRequired(policy, operator.role)
      ? 'enrol'
      : 'none';
  return { ok: true, operator, next };
}

/** The second step: a TOTP or recovery code of an operator whose password was right. */
export async function checkCode(
  sql: Sql,
  keyring: Keyring,
  policy: OperatorPolicy,
  input: { operator: Operator; code: string; client: string | undefined; via: Via },
): Promise<{ ok: true; kind: 'totp' | 'recovery' } | Refusal> {
  const { operator, client, via } = input;
  const admission = policy.limiter.admit(client, operator.login);
  if (!admission.ok) return limited(client, via, admission.retryAfterS);
  let kind: 'totp' | 'recovery' | undefined;
  try {
    kind = await checkSecondFactor(sql, keyring, operator, input.code.slice(0, 64));
  } catch (err) {
    admission.attempt.abandoned();
    throw err;
  }
  if (!kind) {
    await recordAudit(sql, {
      actor: operator.login,
      action: 'login_failed',
      details: { step: 'code', reason: 'invalid', client: client ?? null, via },
    });
    log.info(
      { login: operator.login, client, via, outcome: 'invalid_code' },
      'operator second factor refused',
    );
    await admission.attempt.failed();
    return { ok: false, reason: 'invalid' };
  }
  admission.attempt.succeeded();
  return { ok: true, kind };
}

/** A login completed: audited with how, and logged. */
export async function recordLogin(
  sql: Sql,
  operator: Operator,
  details: { client: string | undefined; via: Via; second_factor: 'totp' | 'recovery' | 'none' },
): Promise<void> {
  await recordAudit(sql, {
    actor: operator.login,
    action: 'login',
    details: { ...details, client: details.client ?? null },
  });
  log.info({ login: operator.login, ...details }, 'operator logged in');
}
