/** Request bodies the servers (the API, the TRP listener, the operator API) take: uncompressed only, and labelled as what they are. */

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

/** application/json, or a JSON subtype (`application/vnd.x+json`), with any parameters. */
const JSON_TYPE = /^\s*application\/([\w.+-]+\+)?json\s*(;|$)/i;

/** Whether a Content-Type header names JSON (`application/json-seq` and the like do not). */
export function isJsonType(header: string): boolean {
  return JSON_TYPE.test(header);
}
