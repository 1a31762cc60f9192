/** Request bodies the servers (the API, the TRP listener) take: uncompressed only. */

/**
 * The Content-Encoding of a request's body, when it is one the server does not take (any but
 * `identity`), as the client named it (cut to 40 characters); undefined when none or identity.
 */
export function unsupportedEncoding(header: string | undefined): string | undefined {
  const codings = (header ?? '')
    .split(',')
    .map((v) => v.trim().toLowerCase())
    .filter((v) => v !== '' && v !== 'identity');
  return codings.length ? codings.join(', ').slice(0, 40) : undefined;
}
