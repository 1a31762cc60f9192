import { z } from 'zod';
import { ErrorBody } from './schemas.js';
import type { Route } from './route.js';

const ERROR_TEXT: Record<number, string> = {
  5000: 'Bad request (validation failure, malformed JSON).',
  5002: 'Invalid address.',
  5003: 'Nothing of this key at that address.',
  5004: 'Invalid webhook (not http(s), or resolves to a forbidden address).',
};

function jsonSchema(schema: z.ZodType) {
  return z.toJSONSchema(schema, {
    io: 'input',
    unrepresentable: 'any',
    target: 'openapi-3.0',
  }) as Record<string, unknown>;
}

/** The OpenAPI 3.0 document of the /v2 API, generated from the routes' zod schemas. */
export function openApiDocument(
  routes: readonly Route[],
  version: string,
): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const { spec } of routes) {
    const parameters: unknown[] = [];
    if (spec.query instanceof z.ZodObject) {
      const shape = (spec.query as z.ZodObject).shape as Record<string, z.ZodType>;
      for (const [name, field] of Object.entries(shape)) {
        parameters.push({
          name,
          in: 'query',
          required: !field.safeParse(undefined).success,
          schema: jsonSchema(field),
        });
      }
    }
    const op: Record<string, unknown> = {
      tags: [spec.tag],
      summary: spec.summary,
      ...(spec.description ? { description: spec.description } : {}),
      parameters,
      responses: {
        200: {
          description: 'Success: code 0, message OK.',
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
          content: { 'application/json': { schema: jsonSchema(spec.response) } },
        },
        400: {
          description:
            'Error numbers: ' + spec.errors.map((n) => `${n} ${ERROR_TEXT[n] ?? ''}`).join(' '),
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        },
        401: {
          description: 'Missing or invalid API key (error number 4010).',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        },
      },
    };
    if (spec.body)
      op.requestBody = {
        required: true,
        content: { 'application/json': { schema: jsonSchema(spec.body) } },
      };
    paths[spec.path] ??= {};
    paths[spec.path]![spec.method] = op;
  }
  return {
    openapi: '3.0.3',
    info: {
      title: 'Tollgate API',
      version,
      description:
        'Blockchain data, streams, AML and Travel Rule, served by a Tollgate appliance. Every request needs an API key (query `apikey`, header `apikey`, body field `apikey` (JSON, or a form body), or basic-auth username). Errors: HTTP 400 with `{code, status, message}`, both numbers the same. AML scores are 0–100 with **100 the highest risk in every output** (analysis, transaction detail, live AML events and webhooks), although the original interface description states the opposite direction for the live AML webhook.',
    },
    servers: [{ url: '/v2' }],
    security: [{ apikeyHeader: [] }, { apikeyQuery: [] }, { basic: [] }],
    paths,
    components: {
      schemas: { Error: jsonSchema(ErrorBody) },
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
