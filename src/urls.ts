/**
 * Rules about URLs that every layer may apply (configuration included): where personal data may
 * be sent. The outbound guard (SSRF checks on resolved addresses) is src/net/.
 */

/** Loopback by its literal host: localhost, 127.0.0.0/8, ::1. */
export function isLoopbackHost(url: URL): boolean {
  const host = (
    url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname
  ).toLowerCase();
  return (
    host === 'localhost' ||
    host === 'localhost.' ||
    host === '::1' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)
  );
}

/**
 * Why a URL that personal data is sent to (a TRP endpoint or callback, a travel rule webhook)
 * may not be used, or undefined when it may: it must be https. Plain http is allowed only to a
 * loopback host, and only when `allowLoopbackHttp` (a development setting) says so.
 */
export function personalDataUrlRefusal(url: URL, allowLoopbackHttp: boolean): string | undefined {
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && allowLoopbackHttp && isLoopbackHost(url)) return undefined;
  return allowLoopbackHttp
    ? 'must be https (plain http only to a loopback host): it carries personal data'
    : 'must be https: it carries personal data';
}
