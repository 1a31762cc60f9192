import { Agent, request } from 'undici';

/** The self-signed certificate of a test appliance is accepted; everything else is real HTTPS. */
const insecure = new Agent({ connect: { rejectUnauthorized: false } });

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: any;
}

/** One agent per client certificate (mutual TLS), accepting the test appliance's certificate. */
const withCertificate = new Map<string, Agent>();
function agentFor(cert: { cert: string; key: string } | undefined): Agent {
  if (!cert) return insecure;
  let agent = withCertificate.get(cert.cert);
  if (!agent) {
    agent = new Agent({ connect: { rejectUnauthorized: false, cert: cert.cert, key: cert.key } });
    withCertificate.set(cert.cert, agent);
  }
  return agent;
}

export async function call(
  baseUrl: string,
  method: string,
  path: string,
  opts: {
    /** A list of values is sent as the header given that many times. */
    headers?: Record<string, string | string[]>;
    /** JSON text, an object sent as JSON, or bytes sent as they are. */
    body?: string | object | Uint8Array;
    /** A TLS client certificate to present (PEM). */
    clientCert?: { cert: string; key: string };
    /** How long the answer's head and body may each take before the call throws (undici's default: 300 s). */
    timeoutMs?: number;
  } = {},
): Promise<Reply> {
  const body =
    opts.body === undefined
      ? undefined
      : typeof opts.body === 'string' || opts.body instanceof Uint8Array
        ? opts.body
        : JSON.stringify(opts.body);
  const headers = {
    ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    ...opts.headers,
  };
  const res = await request(baseUrl + path, {
    method: method as 'GET',
    headers,
    body,
    dispatcher: agentFor(opts.clientCert),
    ...(opts.timeoutMs ? { headersTimeout: opts.timeoutMs, bodyTimeout: opts.timeoutMs } : {}),
  });
  const text = await res.body.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.statusCode, headers: res.headers, text, json };
}
