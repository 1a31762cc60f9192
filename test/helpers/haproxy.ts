import { onPath } from './on-path.js';

/** Debian's haproxy, for test/haproxy-config.test.ts (support/haproxy.ts runs it). */
export const findHaproxy = () => onPath('haproxy', ['/usr/sbin', '/usr/local/sbin']);

/** Skip only off CI: on CI (CI=true) a missing haproxy fails the file in its beforeAll. */
export const skipWithoutHaproxy = !findHaproxy() && process.env.CI !== 'true';
export const HAPROXY_SKIP_MESSAGE =
  'haproxy not installed (apt-get install haproxy); the proxy configuration test skipped';

/** The haproxy to run, or an error saying CI needs it. */
export function haproxyBin(): string {
  const bin = findHaproxy();
  if (!bin) throw new Error(HAPROXY_SKIP_MESSAGE.replace('; the', ', and CI needs it: the'));
  return bin;
}
