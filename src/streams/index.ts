/**
 * Streams' face: subscriptions, the events the indexer writes for them, and their webhook bodies
 * (handed to the outbox). Nothing outside this folder imports a file in it but this one.
 */
export { enqueueStreamEvents } from './events.js';
export {
  addressHistory,
  listStreams,
  NO_SUBSCRIPTION_LIMITS,
  type ReplayNetwork,
  subscribe,
  subscribeWithReplay,
  type SubscriptionLimits,
  subscriptionPage,
  unsubscribe,
} from './streams.js';
export { streamEvents } from './webhook-bodies.js';
export {
  findSubscription,
  setSubscriptionPaused,
  type PauseResult,
  type Subscription,
} from './pause.js';
