import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { open, seal } from '../../src/pools/secret-box.js';
import { startService, tempDir, type RunningService } from '../helpers/service.js';

/**
 * Secrets of pool resources added at run time are sealed in the store under a key of their own, not under the
 * internal token (which Prometheus' scrape config and every operator script hold, and which an operator rotates).
 */
const TOKEN = 'internal-token-sealing-0123456789';
const OTHER_TOKEN = 'internal-token-sealing-rotated-01';
const SECRETS_KEY = 'secrets-key-for-the-sealing-test-0123456789';
const SECRET = 'sk-SEALED-account-secret-5f2e9a';
const auth = (token: string) => ({ authorization: `Bearer ${token}` });

async function sealedBox(svc: RunningService, id: string): Promise<string> {
  const row = (await svc.app.store.runtime.changes()).find((r) => r.key === `account:${id}`);
  if (!row) throw new Error(`no runtime change for ${id}`);
  const state = JSON.parse(row.state) as { sealed?: string };
  expect(row.state).not.toContain(SECRET);
  if (!state.sealed) throw new Error('the secret is not sealed');
  return state.sealed;
}

const addAccount = (svc: RunningService, token: string, id: string) =>
  svc.call('POST', '/internal/pools/accounts', { id, engine: 'CHATBOT_A', country: 'JP', secret: SECRET }, auth(token));

describe('pool secrets sealed with their own key', () => {
  it('open with the secrets key, not with the internal token; survive a rotation of the token', async () => {
    const dataDir = tempDir();
    const postgres = process.env.AEQ_TEST_STORE === 'postgres';
    // The embedded store generates its key in the data dir; PostgreSQL's processes are given the same one.
    const env = { AEQ_DATA_DIR: dataDir, ...(postgres ? { AEQ_SECRETS_KEY: SECRETS_KEY } : {}) };
    let svc = await startService({ ...env, AEQ_INTERNAL_TOKEN: TOKEN });
    try {
      expect((await addAccount(svc, TOKEN, 'jp-sealed')).status).toBe(201);
      const box = await sealedBox(svc, 'jp-sealed');
      const key = postgres ? SECRETS_KEY : fs.readFileSync(path.join(dataDir, 'secrets-key'), 'utf8').trim();
      if (!postgres) expect(fs.statSync(path.join(dataDir, 'secrets-key')).mode & 0o077).toBe(0);
      expect(open(box, TOKEN)).toBeNull();
      expect(JSON.parse(open(box, key) ?? '{}')).toEqual({ secret: SECRET });
    } finally {
      await svc.stop();
    }
    // A new internal token: the resource is still usable (it was not sealed with the token).
    svc = await startService({ ...env, AEQ_INTERNAL_TOKEN: OTHER_TOKEN });
    try {
      const pools = (await svc.call('GET', '/internal/pools', undefined, auth(OTHER_TOKEN))).body;
      expect(pools.accounts.map((a: { id: string }) => a.id)).toContain('jp-sealed');
      expect(JSON.stringify(pools)).not.toContain(SECRET);
    } finally {
      await svc.stop();
    }
  });

  it('a box sealed with the internal token (before the secrets key) is sealed again under the key', async () => {
    const dataDir = tempDir();
    const postgres = process.env.AEQ_TEST_STORE === 'postgres';
    const env = {
      AEQ_DATA_DIR: dataDir,
      AEQ_INTERNAL_TOKEN: TOKEN,
      ...(postgres ? { AEQ_SECRETS_KEY: SECRETS_KEY } : {}),
    };
    let svc = await startService(env);
    try {
      // What the previous version wrote for an account added at run time.
      const legacy = {
        kind: 'account',
        spec: { id: 'jp-legacy', engine: 'CHATBOT_A', country: 'JP' },
        sealed: seal(JSON.stringify({ secret: SECRET }), TOKEN),
        disabled: false,
        removed: false,
      };
      await svc.app.store.runtime.putChange({
        key: 'account:jp-legacy',
        state: JSON.stringify(legacy),
        now: Date.now(),
      });
    } finally {
      await svc.stop();
    }
    svc = await startService(env);
    try {
      const pools = (await svc.call('GET', '/internal/pools', undefined, auth(TOKEN))).body;
      expect(pools.accounts.map((a: { id: string }) => a.id)).toContain('jp-legacy');
      const box = await sealedBox(svc, 'jp-legacy');
      expect(open(box, TOKEN)).toBeNull();
      const key = postgres ? SECRETS_KEY : fs.readFileSync(path.join(dataDir, 'secrets-key'), 'utf8').trim();
      expect(JSON.parse(open(box, key) ?? '{}')).toEqual({ secret: SECRET });
    } finally {
      await svc.stop();
    }
  });

  it.runIf(process.env.AEQ_TEST_STORE === 'postgres')(
    'PostgreSQL without AEQ_SECRETS_KEY seals nothing: adding a secret says what to set',
    async () => {
      const svc = await startService({ AEQ_INTERNAL_TOKEN: TOKEN });
      try {
        const r = await addAccount(svc, TOKEN, 'jp-unsealable');
        expect(r.status).toBe(422);
        expect(r.body.error.code).toBe('SECRETS_KEY_MISSING');
        expect(r.body.error.message).toContain('AEQ_SECRETS_KEY');
        expect(JSON.stringify(r.body)).not.toContain(SECRET);
        // An exit address without a proxy URL holds no secret and is still added.
        const exit = await svc.call(
          'POST',
          '/internal/pools/exit-addresses',
          { id: 'direct-2', country: 'US' },
          auth(TOKEN),
        );
        expect(exit.status).toBe(201);
      } finally {
        await svc.stop();
      }
    },
  );
});
