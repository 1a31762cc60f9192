import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';

/**
 * Validators for answers against the OpenAPI document the appliance serves: the schema of a
 * route's response (its `$ref`s into `components.schemas` resolved by Ajv), made strict (an
 * object with `properties` and no word on others refuses any other key), so an answer with an
 * undocumented field, a missing required one, a wrong type or a null where a string is promised
 * fails.
 */

type Json = Record<string, unknown>;

/** A deep copy of a schema in which every object schema with `properties` is closed. */
export function closed(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closed);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Json = {};
  // `properties` and `$defs` map names to schemas: close each schema, keep the names.
  for (const [key, value] of Object.entries(schema as Json))
    out[key] =
      key === 'properties' || key === '$defs' || key === 'patternProperties'
        ? Object.fromEntries(Object.entries(value as Json).map(([k, v]) => [k, closed(v)]))
        : closed(value);
  if (out.properties && out.additionalProperties === undefined) out.additionalProperties = false;
  return out;
}

export interface DocumentValidator {
  /** Validates a whole success envelope of the route; returns the errors (empty: valid). */
  response(method: string, path: string, body: unknown, status?: number): string[];
  /** Validates a value against a schema at a JSON pointer of the document (e.g. a webhook's body). */
  at(pointer: string, value: unknown): string[];
}

export function documentValidator(document: unknown): DocumentValidator {
  const doc = closed(document) as Json;
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  ajv.addSchema({ ...(doc as object), $id: 'tollgate:openapi' } as object);
  const cache = new Map<string, ValidateFunction>();
  const compiled = (pointer: string): ValidateFunction => {
    let fn = cache.get(pointer);
    if (!fn) {
      fn = ajv.compile({ $ref: `tollgate:openapi#${pointer}` });
      cache.set(pointer, fn);
    }
    return fn;
  };
  const check = (pointer: string, value: unknown): string[] => {
    const fn = compiled(pointer);
    return fn(value)
      ? []
      : (fn.errors ?? []).map(
          (e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`,
        );
  };
  const pointerSegment = (s: string) => s.replaceAll('~', '~0').replaceAll('/', '~1');
  return {
    response: (method, path, body, status = 200) => {
      const op = ((doc.paths as Json)?.[path] as Json | undefined)?.[method.toLowerCase()];
      if (!op) return [`no operation ${method} ${path} in the document`];
      const responses = (op as Json).responses as Json;
      if (!responses?.[String(status)]) return [`no response ${status} for ${method} ${path}`];
      return check(
        `/paths/${pointerSegment(path)}/${method.toLowerCase()}/responses/${status}/content/application~1json/schema`,
        body,
      );
    },
    at: check,
  };
}
