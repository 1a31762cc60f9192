import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { apiContract } from '../src/api/contract.js';

/**
 * The generated half of the typed client in client/: the OpenAPI document (client/openapi.json)
 * and its TypeScript types (client/schema.d.ts, by openapi-typescript). `npm run client` writes
 * them; test/openapi-client.test.ts fails when the committed ones differ from what the routes'
 * schemas give now.
 */

export const CLIENT_DIR = fileURLToPath(new URL('../client/', import.meta.url));

export async function clientFiles(): Promise<Record<'openapi.json' | 'schema.d.ts', string>> {
  const document = apiContract();
  const ast = await openapiTS(document as never, { alphabetize: false });
  return {
    'openapi.json': `${JSON.stringify(document, null, 2)}\n`,
    'schema.d.ts': `/**\n * Generated from client/openapi.json by openapi-typescript (npm run client). Do not edit.\n */\n\n${astToString(ast)}`,
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const [name, text] of Object.entries(await clientFiles()))
    writeFileSync(CLIENT_DIR + name, text);
  process.stdout.write(`wrote ${CLIENT_DIR}openapi.json and schema.d.ts\n`);
}
