/**
 * What a travel rule operation refuses, independent of who asked: the /v2 routes, the operator
 * API and the TRP endpoints each turn it into their own answer (400 with an error number; 404 or
 * 409; TRP's 404 or 409). Messages name fields and statuses, never personal data.
 */
export class TravelRuleError extends Error {
  constructor(
    readonly kind: 'not_found' | 'state' | 'invalid' | 'invalid_address' | 'unavailable',
    message: string,
  ) {
    super(message);
    this.name = 'TravelRuleError';
  }
}
