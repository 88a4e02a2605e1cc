import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { lazySerializers } from '../../src/http/lazy-serializers.js';

const responseSchema = {
  200: {
    type: 'object',
    properties: {
      id: { type: 'string' },
      count: { type: 'integer' },
      items: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } } } },
      note: { type: ['string', 'null'] },
    },
  },
};
const answer = {
  id: 'a1',
  count: '7',
  items: [{ name: 'x', secret: 's' }],
  note: null,
  undeclared: 'dropped',
};

async function server(lazy: boolean): Promise<FastifyInstance> {
  const app = Fastify(lazy ? { schemaController: { compilersFactory: { buildSerializer: lazySerializers() } } } : {});
  app.get('/thing', { schema: { response: responseSchema } }, async () => answer);
  await app.ready();
  return app;
}

/**
 * The response serializers built on first use (src/http/lazy-serializers.ts) write what Fastify's own, built when
 * the server gets ready, write: the same fast-json-stringify functions, only built later. A real Fastify each.
 */
describe('lazySerializers', () => {
  const apps: FastifyInstance[] = [];
  afterAll(async () => {
    for (const a of apps) await a.close();
  });

  it('serializes a response as the eager serializers do, first call and later ones', async () => {
    const eager = await server(false);
    const lazy = await server(true);
    apps.push(eager, lazy);
    for (let i = 0; i < 2; i++) {
      const [e, l] = await Promise.all([eager.inject('/thing'), lazy.inject('/thing')]);
      expect(l.statusCode).toBe(200);
      expect(l.body).toBe(e.body);
      expect(JSON.parse(l.body)).toEqual({ id: 'a1', count: 7, items: [{ name: 'x' }], note: null });
    }
  });
});
