import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { expect } from 'vitest';
import { z } from 'zod';
import { WEBHOOKS, type WebhookSpec } from '../../src/api/webhook-contract.js';
import { closed } from './openapi.js';

/**
 * Checks a webhook body against its documented contract (src/api/webhook-contract.ts) strictly:
 * the body must parse with the zod schema, and validate against its JSON Schema (as the OpenAPI
 * document shows it) with `additionalProperties: false` forced on every object schema that
 * lists properties, so an unknown key at any level, a missing required key, a wrong type or a
 * null where none is documented is an error.
 */

export type WebhookName =
  | 'streamEvm'
  | 'streamBitcoin'
  | 'liveAml'
  | 'travelRule'
  | 'retraction'
  | 'test'
  | 'endpointDisabled';

export function webhookSpec(name: WebhookName): WebhookSpec {
  const spec = WEBHOOKS.find((w) => w.name === name);
  if (!spec) throw new Error(`no webhook ${name} in WEBHOOKS`);
  return spec;
}

const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
// The only format the schemas use; the pattern zod adds already fixes its form.
ajv.addFormat('date-time', (s: string) => !Number.isNaN(Date.parse(s)));
ajv.addFormat('date', (s: string) => !Number.isNaN(Date.parse(s)));
const validators = new Map<WebhookSpec, ValidateFunction>();

/** The strict JSON Schema of a webhook body, as the helper validates it. */
export function strictJsonSchema(spec: WebhookSpec): Record<string, unknown> {
  const schema = z.toJSONSchema(spec.body, { io: 'output', target: 'draft-2020-12' });
  return closed(schema) as Record<string, unknown>;
}

function validatorOf(spec: WebhookSpec): ValidateFunction {
  let validate = validators.get(spec);
  if (!validate) {
    validate = ajv.compile(strictJsonSchema(spec));
    validators.set(spec, validate);
  }
  return validate;
}

/** Why a body breaks its webhook's contract; [] when it keeps it. */
export function contractViolations(spec: WebhookSpec | WebhookName, body: unknown): string[] {
  const s = typeof spec === 'string' ? webhookSpec(spec) : spec;
  const problems: string[] = [];
  const parsed = s.body.safeParse(body);
  if (!parsed.success)
    for (const issue of parsed.error.issues)
      problems.push(`zod ${issue.path.join('.') || '(body)'}: ${issue.message}`);
  const validate = validatorOf(s);
  if (!validate(body))
    for (const e of validate.errors ?? [])
      problems.push(
        `schema ${e.instancePath || '(body)'}: ${e.message}${e.params && 'additionalProperty' in e.params ? ` (${String(e.params.additionalProperty)})` : ''}`,
      );
  return problems;
}

/**
 * Asserts that every body keeps the contract of `name`, naming each body that does not and
 * why. At least one body is required, so a test that received nothing cannot pass here.
 */
export function expectWebhookContract(name: WebhookName, bodies: readonly unknown[]): void {
  expect(bodies.length, `no ${name} bodies to check`).toBeGreaterThan(0);
  const failures = bodies.flatMap((body, i) => {
    const problems = contractViolations(name, body);
    return problems.length
      ? [`body ${i} ${JSON.stringify(body).slice(0, 200)}…\n  ${problems.join('\n  ')}`]
      : [];
  });
  expect(failures, `${name} bodies that break the webhook contract`).toEqual([]);
}
