import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_KEY, startIdleService, tempDir, type RunningService } from '../helpers/service.js';

const run = promisify(execFile);
const MIB = 1024 * 1024;

/**
 * An oversized body gets the contract's 413 envelope whatever the client: Node's own fetch (undici), curl (with its
 * `Expect: 100-continue` and without it, writing the whole body first) and Python `requests` (which writes the
 * whole body before it reads an answer). None may see a socket error because the server closed the connection
 * while the client was still writing.
 */
const CASES: Array<[string, number]> = [
  ['/v1/async/task/batch', 9 * MIB],
  ['/v1/async/task/batch', 40 * MIB],
  ['/v1/async/task', 2 * MIB],
  ['/v1/source-influence', 2 * MIB],
];

/** A Python 3 that has `requests` (the machine's own, or Debian's python3-requests that .ci/run installs). */
async function pythonWithRequests(): Promise<string> {
  for (const py of ['python3', '/usr/bin/python3']) {
    try {
      await run(py, ['-c', 'import requests']);
      return py;
    } catch {
      // not this one
    }
  }
  throw new Error('no python3 with the requests package: install Debian python3-requests (.ci/run does)');
}

const PY_CLIENT = `
import json, sys, requests
url, key, file = sys.argv[1:4]
with open(file, 'rb') as f:
    body = f.read()
r = requests.post(url, data=body, headers={'authorization': 'Bearer ' + key, 'content-type': 'application/json'})
print(json.dumps({'status': r.status_code, 'code': r.json()['error']['code']}))
`;

describe('oversized bodies from three HTTP clients', () => {
  let svc: RunningService;
  const files = new Map<number, string>();
  beforeAll(async () => {
    svc = await startIdleService();
    const dir = tempDir();
    for (const [, size] of CASES) {
      if (files.has(size)) continue;
      const file = path.join(dir, `body-${size}.json`);
      fs.writeFileSync(
        file,
        JSON.stringify([{ taskType: 'SEARCH_A', payload: { query: 'q' }, filler: 'x'.repeat(size) }]),
      );
      files.set(size, file);
    }
  });
  afterAll(() => svc.stop());

  it.each(CASES)('fetch: %s with %d bytes answers 413 PAYLOAD_TOO_LARGE', async (p, size) => {
    const body = fs.readFileSync(files.get(size) ?? '');
    for (let i = 0; i < 5; i++) {
      const r = await fetch(`${svc.url}${p}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' },
        body,
      });
      expect(r.status).toBe(413);
      expect(((await r.json()) as { error: { code: string } }).error.code).toBe('PAYLOAD_TOO_LARGE');
    }
  });

  it.each(CASES)('curl: %s with %d bytes answers 413, with and without Expect: 100-continue', async (p, size) => {
    for (const expect100 of [true, false]) {
      const args = ['-sS', '-o', '-', '-w', '\\n%{http_code}', '-X', 'POST', `${svc.url}${p}`];
      args.push('-H', `authorization: Bearer ${TEST_KEY}`, '-H', 'content-type: application/json');
      if (!expect100) args.push('-H', 'Expect:');
      args.push('--data-binary', `@${files.get(size)}`);
      const { stdout } = await run('curl', args, { maxBuffer: 4 * MIB });
      const lines = stdout.trim().split('\n');
      expect(lines.at(-1), `curl ${expect100 ? 'with' : 'without'} Expect`).toBe('413');
      expect(JSON.parse(lines.slice(0, -1).join('\n')).error.code).toBe('PAYLOAD_TOO_LARGE');
    }
  });

  it.each(CASES)('python requests: %s with %d bytes answers 413', async (p, size) => {
    const py = await pythonWithRequests();
    for (let i = 0; i < 3; i++) {
      const { stdout } = await run(py, ['-c', PY_CLIENT, `${svc.url}${p}`, TEST_KEY, files.get(size) ?? '']);
      expect(JSON.parse(stdout)).toEqual({ status: 413, code: 'PAYLOAD_TOO_LARGE' });
    }
  });
});
