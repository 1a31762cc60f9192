import type { Sql } from '../db/index.js';
import { DomainError, type RefusalKind } from '../errors.js';

/** What the webhook operations need. */
export interface DeliveriesDeps {
  sql: Sql;
  /** Attempts a requeued event is granted on top of those made (TOLLGATE_WEBHOOK_MAX_ATTEMPTS). */
  maxAttempts: number;
  /** The travel rule webhook of keys without one of their own (TOLLGATE_TRAVEL_RULE_WEBHOOK_URL). */
  travelRuleWebhookUrl?: string;
}

/** What a webhook operation refuses; each face answers it through apiErrorOf (src/errors.ts). */
export class DeliveryError extends DomainError {
  constructor(kind: RefusalKind, message: string) {
    super(kind, message);
    this.name = 'DeliveryError';
  }
}

/** The kinds of webhook events as the API names them. */
export type DeliveryKind = 'stream' | 'aml' | 'travelrule' | 'test';

/** The outbox's name of a kind (webhook_events.kind). */
export function outboxKind(kind: DeliveryKind): string {
  return kind === 'aml' ? 'liveaml' : kind;
}

/** The API's name of an outbox kind. */
export function apiKind(kind: string): DeliveryKind {
  return (kind === 'liveaml' ? 'aml' : kind) as DeliveryKind;
}

/** The actor of an audit entry for a change an API key made through /v2. */
export function keyActor(apiKeyId: string): string {
  return `apikey:${apiKeyId}`;
}
