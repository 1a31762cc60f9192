/**
 * Operators' face: accounts, roles and their authentication (HTTP basic auth for the operator
 * API). Nothing outside this folder imports a file in it but this one.
 */
export { requireOperator, type OperatorEnv } from './auth.js';
export {
  authenticateOperator,
  createOperator,
  disableOperator,
  isOperatorRole,
  listOperators,
  MAX_PASSWORD_LENGTH,
  OPERATOR_ROLES,
  OperatorInputError,
  resetOperatorPassword,
  roleAllows,
  type Operator,
  type OperatorListing,
  type OperatorRole,
} from './operators.js';
