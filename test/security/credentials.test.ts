import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SettingsError, loadSettings } from '../../src/config/settings.js';
import { TEST_KEY, readBody, startService, tempDir, type RunningService } from '../helpers/service.js';

/**
 * Configured credentials as an attacker meets them: weak ones refused at start-up, the generated key only on the
 * operator's console (never in the structured log that is shipped and kept), and a failed authentication that costs
 * no store read when the token cannot be a key.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `aeq serve` (as `npm start` does) until it exits or has listened, then stops it. */
function serve(env: Record<string, string>, dataDir: string): Promise<Run> {
  return new Promise((resolve) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts'], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        AEQ_SANDBOX: '1',
        PORT: '0',
        AEQ_DATA_DIR: dataDir,
        AEQ_LOG_LEVEL: 'info',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => proc.kill('SIGKILL'), 30_000);
    proc.stdout.on('data', (c: Buffer) => {
      stdout += c.toString('utf8');
      if (stdout.includes('aeq listening')) proc.kill('SIGTERM');
    });
    proc.stderr.on('data', (c: Buffer) => {
      stderr += c.toString('utf8');
    });
    proc.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Settings and the console are the same whatever the store: these run in the SQLite project only. */
const onceForAllStores = process.env.AEQ_TEST_STORE === 'postgres';

describe.skipIf(onceForAllStores)('weak configured credentials', () => {
  for (const [name, value] of [
    ['AEQ_API_KEY', 'short-key-12345'],
    ['AEQ_INTERNAL_TOKEN', 'tok-123456'],
    ['AEQ_SECRETS_KEY', 'sixteen-chars-xx-but-not-32'],
  ] as const) {
    it(`${name} below the minimum length: the service does not start, says why, never echoes the value`, async () => {
      const run = await serve({ AEQ_API_KEY: TEST_KEY, [name]: value }, tempDir());
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(
        new RegExp(`^aeq: ${name} is too short \\(\\d+ characters\\): use at least \\d+`, 'm'),
      );
      expect(run.stderr + run.stdout).not.toContain(value);
      expect(run.stdout).not.toContain('aeq listening');
    }, 40_000);
  }

  it('the client key, the internal token and the secrets key must differ', () => {
    const same = 'the-same-credential-0123456789';
    expect(() => loadSettings({ AEQ_API_KEY: same, AEQ_INTERNAL_TOKEN: same })).toThrow(SettingsError);
    expect(() => loadSettings({ AEQ_API_KEY: same, AEQ_INTERNAL_TOKEN: `${same}-x` })).not.toThrow();
    expect(() => loadSettings({ AEQ_API_KEY: 'has a space in it 0123' })).toThrow(/whitespace/);
    // The sealing key is no credential anyone else holds.
    const long = 'a-credential-long-enough-to-seal-0123456789';
    expect(() => loadSettings({ AEQ_INTERNAL_TOKEN: long, AEQ_SECRETS_KEY: long })).toThrow(
      /AEQ_SECRETS_KEY must differ/,
    );
    expect(() => loadSettings({ AEQ_API_KEY: long, AEQ_SECRETS_KEY: long })).toThrow(/AEQ_SECRETS_KEY must differ/);
  });
});

describe.skipIf(onceForAllStores)('the generated API key', () => {
  it('is shown once on the console, never in the structured log, and works', async () => {
    const dataDir = tempDir();
    const first = await serve({}, dataDir);
    const key = fs.readFileSync(path.join(dataDir, 'api-key'), 'utf8').trim();
    expect(key).toMatch(/^aeq_[A-Za-z0-9_-]{32}$/);
    // The console line: plain text on standard error, once.
    expect(first.stderr.split(key).length - 1).toBe(1);
    expect(first.stderr).toMatch(/^aeq: generated API key \(shown once; kept in .*api-key\): aeq_/m);
    // Every structured (JSON) line, on either stream, is without it; the log says where it is kept.
    const jsonLines = `${first.stdout}\n${first.stderr}`.split('\n').filter((l) => l.startsWith('{'));
    expect(jsonLines.length).toBeGreaterThan(2);
    for (const line of jsonLines) expect(line).not.toContain(key);
    expect(first.stdout).toContain('generated an API key');
    // A restart reuses it and shows it nowhere.
    const second = await serve({}, dataDir);
    expect(second.code).toBe(0);
    expect(second.stdout + second.stderr).not.toContain(key);
    // Once AEQ_API_KEY is set, the start-up log says the generated key no longer works, and where it is.
    const third = await serve({ AEQ_API_KEY: TEST_KEY }, dataDir);
    expect(third.code).toBe(0);
    expect(third.stdout).toMatch(
      /"apiKeyFile":"[^"]*api-key".*AEQ_API_KEY is set: the key generated .* no longer accepted/,
    );
    expect(third.stdout + third.stderr).not.toContain(key);
  }, 60_000);
});

describe('failed authentication', () => {
  let svc: RunningService;
  let reads = 0;
  beforeAll(async () => {
    svc = await startService({ AEQ_INTERNAL_TOKEN: 'internal-token-credentials-0123' });
    // Counts the store's key lookups: the one read an unknown token can cost.
    const accounts = svc.app.store.accounts;
    const keyByHash = accounts.keyByHash.bind(accounts);
    accounts.keyByHash = (hash: string) => {
      reads++;
      return keyByHash(hash);
    };
  });
  afterAll(() => svc.stop());

  const stats = async (token: string) =>
    (await svc.raw('GET', '/stats', undefined, { authorization: `Bearer ${token}` })).status;

  it('a token that cannot be a key is refused without a store read', async () => {
    reads = 0;
    for (const token of [
      'x',
      'aeq_',
      'aeq_short',
      `aeq_${'A'.repeat(31)}`,
      `aeq_${'A'.repeat(33)}`,
      `aeq_${'A'.repeat(31)}!`,
      `aeq_${'A'.repeat(31)}=`,
      'A'.repeat(36),
      'a'.repeat(8000),
      `aeq_${'é'.repeat(32)}`,
    ]) {
      expect(await stats(token), token.slice(0, 40)).toBe(401);
    }
    expect(reads).toBe(0);
  });

  it('an unknown key-shaped token costs one store read, and none when repeated', async () => {
    reads = 0;
    const unknown = `aeq_${'Q'.repeat(32)}`;
    for (let i = 0; i < 5; i++) expect(await stats(unknown)).toBe(401);
    expect(reads).toBe(1);
  });

  it('a flood of unknown tokens does not flush a valid key from the cache', async () => {
    const made = await svc.call(
      'POST',
      '/internal/keys',
      { account: 'default' },
      { authorization: 'Bearer internal-token-credentials-0123' },
    );
    const key = made.body.key as string;
    // Making a key moves the keys version, which drops every process's cache at its next poll (every 500 ms): let
    // that poll pass, then the key's first use fills the cache and the next is answered from it.
    await new Promise((r) => setTimeout(r, 1_200));
    expect(await stats(key)).toBe(200);
    reads = 0;
    expect(await stats(key)).toBe(200);
    expect(reads).toBe(0);
    // More unknown key-shaped tokens than the cache of unknown tokens holds (10,000), eight at a time.
    const tokens = Array.from({ length: 10_050 }, (_, i) => `aeq_${i.toString(36).padStart(32, '-')}`);
    for (let i = 0; i < tokens.length; i += 50) {
      const statuses = await Promise.all(tokens.slice(i, i + 50).map(stats));
      expect(statuses.every((s) => s === 401)).toBe(true);
    }
    expect(reads).toBe(tokens.length);
    reads = 0;
    expect(await stats(key)).toBe(200);
    expect(await stats(TEST_KEY)).toBe(200);
    expect(reads).toBe(0);
  }, 120_000);
});

describe('the 401 answer', () => {
  it('is the same for a missing, malformed, unknown and revoked key', async () => {
    const svc = await startService();
    try {
      const bodies = new Set<string>();
      for (const header of [undefined, 'Bearer x', `Bearer aeq_${'Z'.repeat(32)}`, 'Basic abc']) {
        const r = await fetch(`${svc.url}/stats`, header ? { headers: { authorization: header } } : {});
        expect(r.status).toBe(401);
        const body = (await readBody(r)) as { error: { code: string; message: string } };
        bodies.add(`${body.error.code}:${body.error.message}`);
      }
      expect([...bodies]).toEqual([
        'MISSING_API_KEY:Missing or invalid API key. Send Authorization: Bearer <API_KEY>.',
      ]);
    } finally {
      await svc.stop();
    }
  });
});
