import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { createApp } from '../../../src/app.js';
import { loadSettings } from '../../../src/config/settings.js';
import { createLogger } from '../../../src/ops/logger.js';

/** Where the generated types live, beside the client that uses them. */
export const TYPES_FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'src', 'openapi.ts');

const HEADER = `/**
 * Generated from the service's OpenAPI document by packages/client/scripts/generate-types.ts (openapi-typescript).
 * Do not edit: run \`npm run client:types\`. test/client/types.test.ts fails when this file and the service differ.
 */
`;

/** The service's OpenAPI document, as GET /openapi.json serves it (an API-only app on a throwaway store). */
export async function serviceOpenApi(): Promise<Record<string, unknown>> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aeq-openapi-'));
  const settings = loadSettings({
    AEQ_DATA_DIR: dataDir,
    AEQ_API_KEY: 'openapi-generator',
    AEQ_ROLE: 'api',
    PORT: '0',
  });
  const app = await createApp(settings, { log: createLogger('silent') });
  try {
    if (!app.http) throw new Error('the API-only app has no HTTP server');
    await app.http.ready();
    return app.http.swagger() as unknown as Record<string, unknown>;
  } finally {
    await app.stop(0);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The client's types from the service's document, as the text of TYPES_FILE. */
export async function generatedTypes(): Promise<string> {
  const ast = await openapiTS(JSON.stringify(await serviceOpenApi()));
  return HEADER + astToString(ast);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  fs.writeFileSync(TYPES_FILE, await generatedTypes());
  process.stderr.write(`wrote ${path.relative(process.cwd(), TYPES_FILE)}\n`);
}
