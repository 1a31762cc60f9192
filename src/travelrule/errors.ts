import { DomainError, type RefusalKind } from '../errors.js';

/**
 * What a travel rule operation refuses, independent of who asked: the /v2 routes, the operator
 * API, the dashboard and the TRP endpoints each answer it through apiErrorOf (src/errors.ts).
 * Messages name fields and statuses, never personal data.
 */
export class TravelRuleError extends DomainError {
  constructor(kind: RefusalKind, message: string, retryAfterS?: number) {
    super(kind, message, retryAfterS);
    this.name = 'TravelRuleError';
  }
}
