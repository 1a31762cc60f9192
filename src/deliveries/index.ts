/**
 * Webhook operations' face: what an API key (through /v2) and the operators (the dashboard) do
 * with webhook deliveries — the delivery log, redelivery and recovery, test events, pausing a
 * stream or a live AML tracking, rotating the signing secret, and the endpoints a failing spell
 * disabled. Every change is audited. Nothing outside this folder imports a file in it but this
 * one.
 */
export {
  apiKind,
  type DeliveriesDeps,
  DeliveryError,
  type DeliveryKind,
  keyActor,
  outboxKind,
} from './deps.js';
export {
  listAttempts,
  recoverSince,
  redeliverEvent,
  sendTestEvent,
  type Attempt,
  type AttemptQuery,
  type TestTarget,
} from './events.js';
export {
  disabledEndpoints,
  enableEndpoint,
  listEndpoints,
  pauseSubscription,
  resumeSubscription,
  rotateSecret,
  type Endpoint,
} from './subscriptions.js';
