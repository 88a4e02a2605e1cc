import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemasCompiled } from '../../src/config/json-schemas.js';
import { startService, type RunningService } from '../helpers/service.js';

/** The JSON Schema meta-schema's check, as Ajv makes it when it compiles a schema with `validateSchema` on. */
const meta = new Ajv({ allowUnionTypes: true });
const problemsOf = (schema: object): string => (meta.validateSchema(schema) ? '' : meta.errorsText(meta.errors));

/**
 * The schemas aeq's own Ajv instances compile (src/config/json-schemas.ts: the config file's, the submit items', the
 * query strings') are not checked against the meta-schema as a process starts; this test checks every one of them,
 * after a service has loaded its config and registered every route.
 */
describe('the schemas compiled without the meta-schema check', () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startService();
  });
  afterAll(() => svc.stop());

  it('are every one valid JSON Schema', () => {
    const schemas = schemasCompiled();
    // The config file's, the submit items' and the batch query's, the task list's and the export's queries, and the
    // monitors' and batches' coerced queries at least.
    expect(schemas.length).toBeGreaterThanOrEqual(8);
    for (const s of schemas) expect(problemsOf(s), JSON.stringify(s).slice(0, 200)).toBe('');
  });

  it('the check finds a schema that is not valid', () => {
    expect(problemsOf({ type: 'object', properties: { a: { type: 'strnig' } } })).not.toBe('');
    expect(problemsOf({ type: 'object', required: 'a' })).not.toBe('');
  });
});
