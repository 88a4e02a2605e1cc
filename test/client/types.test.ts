import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TYPES_FILE, generatedTypes } from '../../packages/client/scripts/generate-types.js';

/** The client's types are the service's OpenAPI document: regenerated here, they must equal the committed file. */
describe('client types', () => {
  it('match the OpenAPI document the service serves (run `npm run client:types` after changing a route)', async () => {
    expect(await generatedTypes()).toBe(fs.readFileSync(TYPES_FILE, 'utf8'));
  });
});
