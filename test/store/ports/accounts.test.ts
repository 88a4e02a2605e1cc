import { expect, it } from 'vitest';
import { forEachStore, T0 } from './driver.js';

/** Accounts and WebhookSecrets (src/store/ports.ts): accounts, their API keys, and their signing secrets. */
forEachStore('accounts, keys and webhook secrets', (s) => {
  const key = (id: string, accountId: string) => ({
    id,
    accountId,
    name: `key ${id}`,
    prefix: `aeq_${id}`,
    hash: `hash-${id}`,
    createdAt: T0,
    expiresAt: null,
  });

  it('makes accounts with unique names', async () => {
    const made = await s.store.accounts.create({ id: 'a1', name: 'acme', createdAt: T0 });
    expect(made).toEqual({ id: 'a1', name: 'acme', createdAt: T0 });
    expect(await s.store.accounts.create({ id: 'a2', name: 'acme', createdAt: T0 })).toBeUndefined();
    expect(await s.store.accounts.byName('acme')).toEqual(made);
    expect((await s.store.accounts.list()).map((a) => a.name)).toEqual(expect.arrayContaining(['default', 'acme']));
  });

  it('finds a key by its hash, records its use, revokes it once, and moves the keys version each change', async () => {
    await s.store.accounts.create({ id: 'a1', name: 'acme', createdAt: T0 });
    const v0 = await s.store.accounts.keysVersion();
    await s.store.accounts.insertKey(key('k1', 'a1'));
    const v1 = await s.store.accounts.keysVersion();
    expect(v1).not.toBe(v0);
    expect(await s.store.accounts.keyByHash('hash-k1')).toMatchObject({ id: 'k1', accountId: 'a1', revokedAt: null });
    await s.store.accounts.touchKey({ id: 'k1', now: T0 + 5 });
    expect((await s.store.accounts.keyByHash('hash-k1'))?.lastUsedAt).toBe(T0 + 5);
    expect((await s.store.accounts.listKeys('a1')).map((k) => [k.prefix, k.accountName])).toEqual([['aeq_k1', 'acme']]);
    expect(await s.store.accounts.revokeKey({ prefix: 'aeq_k1', now: T0 + 10 })).toMatchObject({ revokedAt: T0 + 10 });
    expect(await s.store.accounts.revokeKey({ prefix: 'aeq_k1', now: T0 + 20 })).toMatchObject({ revokedAt: T0 + 10 });
    expect(await s.store.accounts.keysVersion()).not.toBe(v1);
    expect(await s.store.accounts.revokeKey({ prefix: 'aeq_none', now: T0 })).toBeUndefined();
  });

  it('keeps an account secret, and the previous one until its end after a rotation', async () => {
    expect(await s.store.webhookSecrets.of(['a1'])).toEqual([]);
    await s.store.webhookSecrets.create({ accountId: 'a1', secret: 'whsec_one', now: T0 });
    expect(await s.store.webhookSecrets.of(['a1', 'a2'])).toEqual([
      { accountId: 'a1', secret: 'whsec_one', createdAt: T0, previousSecret: null, previousExpiresAt: null },
    ]);
    await s.store.webhookSecrets.rotate({ accountId: 'a1', secret: 'whsec_two', now: T0 + 1, previousUntil: T0 + 99 });
    expect(await s.store.webhookSecrets.of(['a1'])).toEqual([
      {
        accountId: 'a1',
        secret: 'whsec_two',
        createdAt: T0 + 1,
        previousSecret: 'whsec_one',
        previousExpiresAt: T0 + 99,
      },
    ]);
  });
});
