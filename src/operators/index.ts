/**
 * Operators' face: accounts, roles, their two-step login (password, then a TOTP or recovery
 * code), its limits, their sessions (the dashboard's cookies and the operator API's tokens) and
 * the operator API's authentication. Nothing outside this folder imports a file in it but this one.
 */
export {
  closeOpsSession,
  openOpsSession,
  OTP_HEADER,
  requireOperator,
  type OperatorEnv,
} from './auth.js';
export {
  hashingStats,
  resetHashingHighWater,
  SCRYPT_CONCURRENCY,
  SCRYPT_QUEUE_MAX,
} from './hashing.js';
export { DEFAULT_LOGIN_LIMITS, type LoginLimits } from './limits.js';
export {
  checkCode,
  checkPassword,
  recordLogin,
  type PasswordOutcome,
  type Refusal,
  type SecondStep,
} from './login.js';
export {
  MFA_SECRET_COLUMN,
  beginEnrolment,
  confirmEnrolment,
  mfaState,
  RECOVERY_CODE_COUNT,
  removeMfa,
  renewRecoveryCodes,
  type Enrolment,
  type MfaState,
} from './mfa.js';
export {
  authenticateOperator,
  checkNewPassword,
  createOperator,
  disableOperator,
  listOperators,
  MAX_PASSWORD_LENGTH,
  MIN_PASSWORD_LENGTH,
  OperatorInputError,
  resetOperatorPassword,
  setOwnPassword,
  type OperatorListing,
} from './operators.js';
export {
  clientAddress,
  mfaRequired,
  operatorPolicy,
  setOperatorPolicy,
  type OperatorPolicy,
} from './policy.js';
export {
  isOperatorRole,
  OPERATOR_ROLES,
  roleAllows,
  type Operator,
  type OperatorRole,
} from './roles.js';
export {
  createSession,
  deleteSession,
  deleteSessionByToken,
  HALF_OPEN_MINUTES,
  MAX_CODE_FAILURES,
  noteCodeFailure,
  SESSION_ABSOLUTE_HOURS,
  SESSION_IDLE_MINUTES,
  touchSession,
  type OperatorSession,
  type SessionStage,
} from './sessions.js';
