import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { loadSettings } from '../../src/config/settings.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';

describe('embedded store page cache', () => {
  it('is 64 MiB unless AEQ_SQLITE_CACHE_MB says otherwise, and refuses nonsense', () => {
    expect(loadSettings({}).sqliteCacheMb).toBe(64);
    expect(loadSettings({ AEQ_SQLITE_CACHE_MB: '256' }).sqliteCacheMb).toBe(256);
    expect(() => loadSettings({ AEQ_SQLITE_CACHE_MB: 'lots' })).toThrow(/AEQ_SQLITE_CACHE_MB/);
    expect(() => loadSettings({ AEQ_SQLITE_CACHE_MB: '0' })).toThrow(/AEQ_SQLITE_CACHE_MB/);
  });

  it('is set on the connection the store opens', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aeq-cache-'));
    const store = openSqliteStore(path.join(dir, 'aeq.sqlite'), 60_000, 128);
    try {
      const r = await sql<{ cache_size: number }>`pragma cache_size`.execute(store.db);
      expect(r.rows[0]?.cache_size).toBe(-128 * 1024);
    } finally {
      await store.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
