/** Operators and their roles: viewer reads, reviewer decides, admin also manages. */

export type OperatorRole = 'viewer' | 'reviewer' | 'admin';

export const OPERATOR_ROLES: readonly OperatorRole[] = ['viewer', 'reviewer', 'admin'];

export interface Operator {
  id: string;
  login: string;
  role: OperatorRole;
}

export function isOperatorRole(value: string): value is OperatorRole {
  return (OPERATOR_ROLES as readonly string[]).includes(value);
}

/** viewer < reviewer < admin. */
export function roleAllows(role: OperatorRole, needed: OperatorRole): boolean {
  return OPERATOR_ROLES.indexOf(role) >= OPERATOR_ROLES.indexOf(needed);
}
