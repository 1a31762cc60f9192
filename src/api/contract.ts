import { NETWORK_SYMBOLS } from '../config/networks.js';
import { VERSION } from '../version.js';
import { allRoutes, type AppDeps } from './app.js';
import { openApiDocument } from './openapi.js';

/**
 * The whole API's OpenAPI document without an appliance (`tollgate openapi`, client/openapi.json):
 * the routes are built with dependencies that refuse to be used, since only their schemas are
 * read. An appliance serves the same document (test/openapi-client.test.ts compares them).
 */
export function apiContract(version: string = VERSION): Record<string, unknown> {
  const unused = new Proxy(
    {},
    {
      get(_target, name) {
        throw new Error(`describing the API used a dependency (${String(name)})`);
      },
    },
  );
  const deps = {
    sql: unused,
    allow: unused,
    aml: unused,
    travelRule: unused,
    networks: [...NETWORK_SYMBOLS],
  } as unknown as AppDeps;
  return openApiDocument(allRoutes(deps), version);
}
