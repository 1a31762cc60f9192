/** API keys' face. Nothing outside this folder imports a file in it but this one. */
export {
  countActiveApiKeys,
  createApiKey,
  ensureApiKey,
  findApiKey,
  keyNameProblem,
  listApiKeys,
  MAX_KEY_NAME_CHARS,
  MAX_KEY_OVERLAP_HOURS,
  revokeApiKey,
  rotateApiKey,
  type ApiKey,
} from './keys.js';
export { ApiKeyCache } from './cache.js';
export {
  DEFAULT_ROTATION_OVERLAP_HOURS,
  MAX_ROTATION_OVERLAP_HOURS,
  rotateWebhookSecret,
  type RotatedSecret,
} from './secrets.js';
