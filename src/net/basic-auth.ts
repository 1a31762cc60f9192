/**
 * An HTTP basic-auth header decoded: the user, and the password when there is a colon. Undefined
 * when the header is not basic auth. API keys use the user (no password); operators use both.
 */
export function decodeBasicAuth(
  header: string | undefined,
): { user: string; password: string | undefined } | undefined {
  if (!header || !/^basic /i.test(header)) return undefined;
  const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon === -1
    ? { user: decoded, password: undefined }
    : { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}
