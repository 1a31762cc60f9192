import { z } from 'zod';
import { ErrorNumber } from '../errors.js';
import { ErrorBody, INT_PARAMS } from './schemas.js';
import type { Route, RouteSpec } from './route.js';
import { WEBHOOK_HEADERS, WEBHOOKS, type WebhookSpec } from './webhook-contract.js';

/**
 * The OpenAPI 3.1 document of the /v2 API, generated from the zod schemas that validate the
 * requests (and describe the answers and webhooks): one source, so the document cannot drift
 * from what the routes accept. Schemas with an `id` (`.meta({ id })`) become
 * `components.schemas` entries; every other schema is inlined where it is used.
 */

type Json = Record<string, unknown>;

/** What each error number means, for the error responses' descriptions. */
const ERROR_TEXT: Record<number, string> = {
  [ErrorNumber.BAD_REQUEST]:
    'bad request (a field fails validation, a parameter, field or API key given twice, a malformed body)',
  [ErrorNumber.INVALID_ADDRESS]: 'invalid address',
  [ErrorNumber.NOT_FOUND_FOR_KEY]: 'nothing of this API key at that address or reference',
  [ErrorNumber.INVALID_WEBHOOK]:
    'invalid webhook URL (not http(s), or it resolves to a forbidden address)',
  [ErrorNumber.SUBSCRIPTION_LIMIT]:
    'the API key already has as many streams or live AML trackings as it may (TOLLGATE_MAX_STREAMS_PER_KEY, TOLLGATE_MAX_TRACKINGS_PER_KEY)',
};

/** The sections of the document, in this order. */
const TAGS: Record<string, string> = {
  Wallet: 'NFTs a wallet holds and its transaction history, from the indexed EVM chains.',
  Stream: 'Webhooks when a tracked address acts (EVM and Bitcoin-family chains).',
  'Live AML': 'Webhooks when a tracked address does something risky, with its risk score and tags.',
  Security: 'AML analysis of any address, and transaction detail with AML data.',
  'Travel rule':
    'Originator and beneficiary data (IVMS101) exchanged with other VASPs, reviewed by the compliance team.',
  'Webhook operations':
    'Your webhook deliveries: the delivery log, redelivery and recovery, test webhooks, secret rotation, and endpoints disabled after failing (pause and resume are under Stream and Live AML).',
  Webhooks: 'What the appliance POSTs to the URLs you register.',
};

const ERROR_REF = { $ref: '#/components/schemas/Error' };

function errorResponse(description: string, example: { number: number; message: string }) {
  return {
    description,
    content: {
      'application/json': {
        schema: ERROR_REF,
        example: { code: example.number, status: example.number, message: example.message },
      },
    },
  };
}

/** Answers any route can give, shared through `components.responses`. */
const SHARED_RESPONSES = {
  Unauthorized: errorResponse(
    'No API key, or one that is unknown or revoked (error number 4010).',
    { number: ErrorNumber.UNAUTHORIZED, message: 'Invalid API key.' },
  ),
  PayloadTooLarge: errorResponse(
    'The body is larger than the configured limit (error number 4130, default 1 MiB).',
    { number: ErrorNumber.PAYLOAD_TOO_LARGE, message: 'Request body larger than 1048576 bytes.' },
  ),
  UnsupportedEncoding: errorResponse(
    'A compressed body (a `Content-Encoding` other than `identity`), or one labelled as neither JSON nor a form (`Content-Type` text/plain, XML, multipart): bodies are taken uncompressed, as JSON (none given is taken as JSON) or `application/x-www-form-urlencoded` (error number 5000).',
    {
      number: ErrorNumber.BAD_REQUEST,
      message: 'Content-Encoding gzip is not supported: send the body uncompressed.',
    },
  ),
  TooManyRequests: {
    ...errorResponse(
      'More requests for this API key than its limit per minute (error number 4290); `Retry-After` says when to come back.',
      {
        number: ErrorNumber.RATE_LIMITED,
        message: 'Rate limit exceeded: 600 requests per minute.',
      },
    ),
    headers: {
      'Retry-After': {
        description: 'Seconds until a request may succeed.',
        schema: { type: 'integer' },
      },
    },
  },
  Internal: errorResponse(
    'An unexpected failure on the appliance (error number 5999); the message carries a request id to find it in the logs.',
    { number: ErrorNumber.INTERNAL, message: 'Internal error (request id 3f0c9a1e).' },
  ),
  Unavailable: {
    ...errorResponse(
      'The database cannot be reached for now, or the data asked for is not indexed yet (error number 5030); nothing was changed, retry later.',
      {
        number: ErrorNumber.UNAVAILABLE,
        message:
          'Service unavailable: the database cannot be reached; retry later (request id 3f0c9a1e).',
      },
    ),
    headers: {
      'Retry-After': {
        description: 'Seconds to wait before retrying.',
        schema: { type: 'integer' },
      },
    },
  },
} as const;

/**
 * JSON Schemas of a set of zod schemas, their shared parts (schemas with an `id`) collected for
 * `components.schemas`. An id'd schema whose input and output forms differ gets both, the input
 * one named `<id>Input`.
 */
class SchemaSet {
  readonly components: Record<string, unknown> = {};

  convert(schema: z.ZodType, io: 'input' | 'output'): Json {
    const generated = z.toJSONSchema(schema, {
      io,
      target: 'draft-2020-12',
      unrepresentable: 'any',
      reused: 'inline',
      cycles: 'ref',
      override: ({ zodSchema, jsonSchema }) => {
        const int = INT_PARAMS.get(zodSchema as unknown as z.ZodType);
        if (!int) return;
        const { description } = jsonSchema as Json;
        for (const key of Object.keys(jsonSchema)) delete (jsonSchema as Json)[key];
        Object.assign(jsonSchema, {
          type: 'integer',
          ...int,
          ...(description !== undefined ? { description } : {}),
        });
      },
    }) as Json;
    const { $schema: _dialect, $defs, ...root } = generated;
    const defs = Object.entries(($defs ?? {}) as Record<string, unknown>);
    const names = new Map(defs.map(([id]) => [id, id]));
    for (const [id, def] of defs) names.set(id, this.nameFor(id, rewriteRefs(def, names), io));
    for (const [id, def] of defs) this.components[names.get(id)!] = rewriteRefs(def, names);
    return rewriteRefs(root, names) as Json;
  }

  /** The name of an id'd schema: its id, unless another schema already has that name. */
  private nameFor(id: string, def: unknown, io: 'input' | 'output'): string {
    const free = (name: string) =>
      this.components[name] === undefined ||
      JSON.stringify(this.components[name]) === JSON.stringify(def);
    if (free(id)) return id;
    const name = io === 'input' ? `${id}Input` : `${id}Output`;
    if (!free(name)) throw new Error(`two different schemas named ${id} in the OpenAPI document`);
    return name;
  }
}

/** `#/$defs/<id>` → `#/components/schemas/<name>`, everywhere in a generated schema. */
function rewriteRefs(value: unknown, names: ReadonlyMap<string, string>): unknown {
  if (Array.isArray(value)) return value.map((v) => rewriteRefs(v, names));
  if (!value || typeof value !== 'object') return value;
  const out: Json = {};
  for (const [key, v] of Object.entries(value as Json)) {
    if (key === '$ref' && typeof v === 'string' && v.startsWith('#/$defs/')) {
      const id = decodeURIComponent(v.slice('#/$defs/'.length));
      out[key] = `#/components/schemas/${names.get(id) ?? id}`;
    } else out[key] = rewriteRefs(v, names);
  }
  return out;
}

/**
 * Answers are documented open (no `additionalProperties: false`): a field added in a later
 * version must not break a client that validates against this document.
 */
function openObjects(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(openObjects);
  if (!value || typeof value !== 'object') return value;
  const out: Json = {};
  for (const [key, v] of Object.entries(value as Json))
    if (!(key === 'additionalProperties' && v === false)) out[key] = openObjects(v);
  return out;
}

/**
 * A request body's top level is closed: a field the route does not take is refused (route.ts,
 * refuseUnknownFields), so the document says so, and names `apikey`, which every body may carry.
 * A client that validates against the document learns of a misspelt field before sending it.
 */
function closedBody(body: z.ZodType, schema: Json): Json {
  if (!(body instanceof z.ZodObject)) return schema;
  return {
    ...schema,
    properties: {
      ...(schema.properties as Json),
      apikey: {
        type: 'string',
        description:
          'The API key, when it is not sent in the apikey header, the query or as the basic-auth username.',
      },
    },
    additionalProperties: false,
  };
}

/** `/travelrule/send_tx_hash` → `travelruleSendTxHash`; with the method first where a path has several. */
export function operationId(spec: RouteSpec, methodsOfPath: number): string {
  const words = spec.path
    .split(/[/_-]/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
  if (methodsOfPath > 1) words.unshift(spec.method);
  return words.map((w, i) => (i === 0 ? w : w[0]!.toUpperCase() + w.slice(1))).join('');
}

const sentence = (text: string) => `${text[0]!.toUpperCase()}${text.slice(1)}.`;

function envelopeExample(spec: RouteSpec): unknown {
  if (!spec.example) return undefined;
  return {
    code: 0,
    message: 'OK',
    data: spec.example.data,
    ...(spec.example.page_count !== undefined ? { page_count: spec.example.page_count } : {}),
  };
}

function operation(
  spec: RouteSpec,
  methodsOfPath: number,
  schemas: SchemaSet,
): Record<string, unknown> {
  const parameters: unknown[] = [];
  if (spec.query instanceof z.ZodObject) {
    const shape = (spec.query as z.ZodObject).shape as Record<string, z.ZodType>;
    for (const [name, field] of Object.entries(shape)) {
      const { description, ...schema } = schemas.convert(field, 'input');
      const given = spec.example?.query?.[name];
      // A query carries strings; an integer parameter's example is shown as the integer.
      const example = given !== undefined && INT_PARAMS.has(field) ? Number(given) : given;
      parameters.push({
        name,
        in: 'query',
        required: !field.safeParse(undefined).success,
        ...(description ? { description } : {}),
        schema,
        ...(example !== undefined ? { example } : {}),
      });
    }
  }
  // Every route may answer 5000 (a query parameter given twice, the key given in two places),
  // whether it lists it or not; the example is the route's own first error.
  const own = [...spec.errors].sort((a, b) => a - b);
  const errors = [...new Set([ErrorNumber.BAD_REQUEST, ...own])].sort((a, b) => a - b);
  const firstError = own[0] ?? ErrorNumber.BAD_REQUEST;
  const meaning = (n: number) => spec.errorText?.[n] ?? ERROR_TEXT[n];
  const responses: Record<string, unknown> = {
    200: {
      description: 'Success: `code` 0, `message` "OK", the answer in `data`.',
      ...(spec.headers
        ? {
            headers: Object.fromEntries(
              Object.entries(spec.headers).map(([name, description]) => [
                name,
                { description, schema: { type: 'string' } },
              ]),
            ),
          }
        : {}),
      content: {
        'application/json': {
          schema: openObjects(schemas.convert(spec.response, 'output')),
          ...(spec.example ? { example: envelopeExample(spec) } : {}),
        },
      },
    },
    ...(errors.length
      ? {
          400: errorResponse(
            'Refused; the error numbers of this route: ' +
              errors
                .map(
                  (n) =>
                    `${n} ${spec.messages?.[n] ? `\`${spec.messages[n]}\`` : (meaning(n) ?? '')}`,
                )
                .join('; ') +
              '.',
            {
              number: firstError,
              message:
                spec.messages?.[firstError] ?? sentence(meaning(firstError) ?? 'bad request'),
            },
          ),
        }
      : {}),
    401: { $ref: '#/components/responses/Unauthorized' },
    ...(spec.body
      ? {
          413: { $ref: '#/components/responses/PayloadTooLarge' },
          415: { $ref: '#/components/responses/UnsupportedEncoding' },
        }
      : {}),
    429: { $ref: '#/components/responses/TooManyRequests' },
    500: { $ref: '#/components/responses/Internal' },
    503: { $ref: '#/components/responses/Unavailable' },
  };
  const op: Record<string, unknown> = {
    operationId: operationId(spec, methodsOfPath),
    tags: [spec.tag],
    summary: spec.summary,
    ...(spec.description ? { description: spec.description } : {}),
    ...(parameters.length ? { parameters } : {}),
    responses,
  };
  if (spec.body) {
    const example = spec.example?.body;
    op.requestBody = {
      required: true,
      content: {
        'application/json': {
          schema: closedBody(spec.body, schemas.convert(spec.body, 'input')),
          ...(example !== undefined ? { example } : {}),
        },
      },
    };
  }
  return op;
}

function webhookOperation(
  hook: WebhookSpec,
  schemas: SchemaSet,
  headers: readonly { name: string; description: string }[],
) {
  return {
    post: {
      operationId: `${hook.name}Webhook`,
      tags: ['Webhooks'],
      summary: hook.summary,
      description: hook.description,
      parameters: headers.map((h) => ({
        name: h.name,
        in: 'header',
        required: true,
        description: h.description,
        schema: { type: 'string' },
      })),
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: openObjects(schemas.convert(hook.body, 'output')),
            example: hook.example,
          },
        },
      },
      responses: {
        '2XX': {
          description:
            'Received: any 2xx answer settles the delivery. Anything else (or no answer in time) is retried; see the README, "Delivery and signatures".',
        },
      },
    },
  };
}

export function openApiDocument(
  routes: readonly Route[],
  version: string,
): Record<string, unknown> {
  const webhooks = { specs: WEBHOOKS, headers: WEBHOOK_HEADERS };
  const schemas = new SchemaSet();
  const methodsOf = new Map<string, number>();
  for (const { spec } of routes) methodsOf.set(spec.path, (methodsOf.get(spec.path) ?? 0) + 1);
  const paths: Record<string, Record<string, unknown>> = {};
  for (const { spec } of routes) {
    paths[spec.path] ??= {};
    paths[spec.path]![spec.method] = operation(spec, methodsOf.get(spec.path)!, schemas);
  }
  const webhookItems = Object.fromEntries(
    webhooks.specs.map((hook) => [hook.name, webhookOperation(hook, schemas, webhooks.headers)]),
  );
  // ErrorBody has an id: converting it puts it in components.schemas, where ERROR_REF points.
  schemas.convert(ErrorBody, 'output');
  const used = new Set([
    ...routes.map((r) => r.spec.tag),
    ...(webhooks.specs.length ? ['Webhooks'] : []),
  ]);
  for (const name of used)
    if (!TAGS[name]) throw new Error(`tag ${name} has no description in src/api/openapi.ts`);
  const tags = Object.entries(TAGS)
    .filter(([name]) => used.has(name))
    .map(([name, description]) => ({ name, description }));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Tollgate API',
      version,
      description:
        'Blockchain data, streams, AML and Travel Rule, served by a Tollgate appliance. Every request needs an API key (query `apikey`, header `apikey`, body field `apikey` (JSON, or a form body), or basic-auth username). Every answer is JSON: success is HTTP 200 with `{code: 0, message: "OK", data}`; a refusal is HTTP 400 (401 for the key, 413, 415, 429, 503, 500) with `{code, status, message}`, both numbers the same. AML scores are 0–100 with **100 the highest risk in every output** (analysis, transaction detail, live AML events and webhooks), although the original interface description states the opposite direction for the live AML webhook.',
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: '/v2', description: 'This appliance.' }],
    security: [{ apikeyHeader: [] }, { apikeyQuery: [] }, { basic: [] }],
    tags,
    paths,
    ...(webhooks.specs.length ? { webhooks: webhookItems } : {}),
    components: {
      schemas: Object.fromEntries(
        Object.entries(schemas.components)
          .map(([name, def]) => [name, openObjects(def)] as const)
          .sort(([a], [b]) => a.localeCompare(b)),
      ),
      responses: SHARED_RESPONSES,
      securitySchemes: {
        apikeyHeader: { type: 'apiKey', in: 'header', name: 'apikey' },
        apikeyQuery: { type: 'apiKey', in: 'query', name: 'apikey' },
        basic: {
          type: 'http',
          scheme: 'basic',
          description: 'The API key as the username, no password.',
        },
      },
    },
  };
}
