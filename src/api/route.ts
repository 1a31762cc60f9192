import type { Context, Hono } from 'hono';
import { z } from 'zod';
import type { AuthEnv } from './auth.js';
import { readJsonBody } from './body.js';
import { echoable, parseInput, queryParams } from './schemas.js';
import { ApiError, apiErrorOf, DomainError, ErrorNumber } from '../errors.js';
import type { ApiKey } from '../keys/index.js';

/**
 * One /v2 route: its schemas (which validate the request and generate the OpenAPI document)
 * and its handler. Handlers return the envelope's `data` (and `page_count` for paged lists).
 */
export interface RouteSpec<Q extends z.ZodType = z.ZodType, B extends z.ZodType = z.ZodType> {
  method: 'get' | 'post' | 'delete';
  path: string;
  summary: string;
  description?: string;
  tag: string;
  query?: Q;
  body?: B;
  response: z.ZodType;
  /** Validates the body instead of `body` (which then only documents it): the travel rule input keeps its IVMS101 paths. */
  parseBody?: (raw: unknown) => unknown;
  /** Error number for a validation failure of each field; others get 5000. */
  fieldErrors?: Record<string, number>;
  /** Error numbers this route can answer with, for the document. */
  errors: number[];
  /** Response headers the handler sets on success (name → description), for the document. */
  headers?: Record<string, string>;
  /**
   * The spec's fixed message for an error number on this route: every error with that number
   * answers with it, and its own message goes to `detail`.
   */
  messages?: Record<number, string>;
  /** What an error number means on this route, where the document's general words do not fit. */
  errorText?: Record<number, string>;
  /**
   * A request and its answer for the document (`query` for a GET's parameters, `body` for the
   * others; `data` and `page_count` of the success envelope). test/openapi-contract.test.ts
   * checks every example against a real answer of the same route.
   */
  example: RouteExample;
}

export interface RouteExample {
  query?: Record<string, string>;
  body?: Record<string, unknown>;
  data: unknown;
  page_count?: number;
}

export interface HandlerInput<Q, B> {
  query: Q;
  body: B;
  apiKey: ApiKey;
  c: Context<AuthEnv>;
}

/**
 * What a handler answers: `data` (serialized into the envelope), or `json`, the data already
 * written as JSON text (by the database: the wallet's pages), put into the envelope as it is.
 */
export type HandlerResult =
  | { data: unknown; page_count?: number }
  | { json: string; page_count?: number };

export interface Route<Q extends z.ZodType = z.ZodType, B extends z.ZodType = z.ZodType> {
  spec: RouteSpec<Q, B>;
  handler: (input: HandlerInput<z.output<Q>, z.output<B>>) => Promise<HandlerResult>;
}

export function defineRoute<Q extends z.ZodType, B extends z.ZodType>(
  spec: RouteSpec<Q, B>,
  handler: Route<Q, B>['handler'],
): Route {
  return { spec, handler } as unknown as Route;
}

/**
 * The methods each path of the routes answers, for a 405's Allow (RFC 9110 section 15.5.6): a
 * GET route also answers HEAD. Paths without parameters, as every /v2 route's is.
 */
export function methodsByPath(base: string, routes: readonly Route[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const { spec } of routes) {
    const methods = out.get(base + spec.path) ?? [];
    const method = spec.method.toUpperCase();
    methods.push(...(method === 'GET' ? ['GET', 'HEAD'] : [method]));
    out.set(base + spec.path, methods);
  }
  return out;
}

export function mountRoutes(app: Hono<AuthEnv>, base: string, routes: readonly Route[]): void {
  for (const route of routes)
    app.on(route.spec.method.toUpperCase(), base + route.spec.path, (c) =>
      answer(route, c).catch((err: unknown) => {
        throw withSpecMessage(route.spec, err instanceof DomainError ? apiErrorOf(err, 'v2') : err);
      }),
    );
}

/** The first name of `given` a route does not take; `apikey` is taken everywhere (auth.ts). */
function untaken(given: object, taken: readonly string[]): string | undefined {
  return Object.keys(given).find((k) => k !== 'apikey' && !taken.includes(k));
}

/**
 * Query parameters a route does not take are refused, not ignored: `network=polygon` on the wallet
 * routes, which read every network, answered as if it had filtered (found by an outside probe),
 * and a POST route's field given in the query read as missing. `apikey` is taken everywhere.
 */
function refuseUnknownParams(spec: RouteSpec, params: Record<string, string>): void {
  const taken = spec.query instanceof z.ZodObject ? Object.keys(spec.query.shape) : [];
  const unknown = untaken(params, taken);
  if (unknown === undefined) return;
  const name = echoable(unknown) ? unknown : 'a parameter';
  const takes = taken.length
    ? `takes ${taken.join(', ')} (and apikey) in the query`
    : spec.body
      ? 'takes its fields in the JSON body, and only apikey in the query'
      : 'takes no query parameter but apikey';
  throw new ApiError(
    400,
    ErrorNumber.BAD_REQUEST,
    `${name}: not a parameter of ${spec.method.toUpperCase()} ${spec.path}, which ${takes}`,
  );
}

/**
 * Fields of a JSON body a route does not take are refused, as unknown query parameters are: a
 * misspelt optional field (`stream_webhok`) was ignored, the answer was OK, and what it asked for
 * was not done (found by an outside probe). The top level only: the objects inside (IVMS101
 * data) are the parsers' own.
 */
function refuseUnknownFields(spec: RouteSpec, body: unknown): void {
  if (!(spec.body instanceof z.ZodObject)) return;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return;
  const taken = Object.keys(spec.body.shape);
  const unknown = untaken(body, taken);
  if (unknown === undefined) return;
  const fields = `${taken.join(', ')} (and apikey)`;
  const where = `${spec.method.toUpperCase()} ${spec.path}`;
  throw new ApiError(
    400,
    ErrorNumber.BAD_REQUEST,
    echoable(unknown)
      ? `${unknown}: not a field of ${where}, which takes ${fields}`
      : `The body has a field ${where} does not take: it takes ${fields}`,
  );
}

async function answer({ spec, handler }: Route, c: Context<AuthEnv>): Promise<Response> {
  const params = queryParams(c);
  refuseUnknownParams(spec, params);
  const query = spec.query ? parseInput(spec.query, params, spec.fieldErrors) : undefined;
  let body: unknown;
  if (spec.body) {
    // No body is an empty object (every field missing); a JSON `null` is a body that is not an
    // object (it read as none, and got a missing field's number).
    const raw = await readJsonBody(c);
    const given = raw === undefined ? {} : raw;
    refuseUnknownFields(spec, given);
    body = spec.parseBody ? spec.parseBody(given) : parseInput(spec.body, given, spec.fieldErrors);
  }
  const result = await handler({ query, body, apiKey: c.get('apiKey'), c } as HandlerInput<
    unknown,
    unknown
  >);
  if ('json' in result) {
    const count = result.page_count !== undefined ? `,"page_count":${result.page_count}` : '';
    c.header('Content-Type', 'application/json');
    return c.body(`{"code":0,"message":"OK","data":${result.json}${count}}`);
  }
  return c.json({
    code: 0,
    message: 'OK',
    data: result.data ?? null,
    ...(result.page_count !== undefined ? { page_count: result.page_count } : {}),
  });
}

/** An error whose number has a fixed message on this route: that message, its own as `detail`. */
function withSpecMessage(spec: RouteSpec, err: unknown): unknown {
  if (!(err instanceof ApiError)) return err;
  const fixed = spec.messages?.[err.errorNumber];
  if (!fixed || err.message === fixed) return err;
  return new ApiError(err.httpStatus, err.errorNumber, fixed, err.message);
}
