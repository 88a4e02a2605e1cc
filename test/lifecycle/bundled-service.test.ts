import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleService } from '../../build/service-bundle.js';
import { killChild, spawnService, type ChildService } from '../helpers/child-service.js';
import { tempDir } from '../helpers/service.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Polls a child's task until it ends; returns its record. */
async function waitDone(child: ChildService, id: string): Promise<Record<string, unknown>> {
  for (let i = 0; i < 600; i++) {
    const body = (await child.call('GET', `/v1/async/task/${id}`)).body as Record<string, unknown>;
    const status = (body.task as { status: string }).status;
    if (status === 'COMPLETED' || status === 'FAILED') return body;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`task ${id} did not end`);
}

/**
 * The service as `npm start` runs it: bundled by build/service-bundle.ts, run by plain `node` with no TypeScript
 * loader. Bundled here from the sources, with each module's address its source file (`twins: 'src'`), so that the test
 * needs no build: the parse pool's threads then load the sources under tsx, as under vitest. `npm run build` makes the
 * same bundle with the addresses of dist/.
 */
describe('the bundled service', () => {
  const children: ChildService[] = [];
  let outdir = '';
  let entry = '';
  beforeAll(async () => {
    // Inside the checkout: the packages left out of the bundle are found in its node_modules.
    fs.mkdirSync(path.join(ROOT, '.tmp'), { recursive: true });
    outdir = fs.mkdtempSync(path.join(ROOT, '.tmp', 'bundle-test-'));
    const files = await bundleService({ outdir, twins: 'src' });
    entry = path.join(outdir, 'main.js');
    expect(files).toContain('main.js');
  }, 60_000);
  afterAll(async () => {
    for (const c of children) await killChild(c);
    if (outdir) fs.rmSync(outdir, { recursive: true, force: true });
  });

  it('serves every family of engine and an analysis, in the sandbox, as the sources do', async () => {
    const bundled = await spawnService({ AEQ_DATA_DIR: tempDir() }, 30_000, [entry]);
    children.push(bundled);
    const batch = await bundled.call('POST', '/v1/async/task/batch', [
      { taskType: 'CHATBOT_A', payload: { prompt: 'best trail running shoes' } },
      { taskType: 'SEARCH_A', payload: { prompt: 'best trail running shoes' } },
      { taskType: 'FORUM', payload: { query: 'trail running shoes' } },
      // A page read runs in the parse pool's threads, loaded by their address from the bundle.
      { taskType: 'WEB_SCRAPE', payload: { url: 'https://example.com/article' } },
    ]);
    expect(batch.status).toBe(200);
    const influence = await bundled.call('POST', '/v1/source-influence', {
      answer: 'Trail shoes need a grippy outsole [1].',
      citations: ['https://example.com/trail-shoes'],
    });
    expect(influence.status).toBe(202);
    const ids = [
      ...(batch.body.results as { task: { id: string } }[]).map((r) => r.task.id),
      influence.body.task.id as string,
    ];
    for (const id of ids) {
      const done = await waitDone(bundled, id);
      expect((done.task as { status: string }).status, JSON.stringify(done).slice(0, 500)).toBe('COMPLETED');
      expect(done.response).toBeTruthy();
    }
    // The published contract is the same document: nothing of the HTTP surface was lost in the bundle.
    const source = await spawnService({ AEQ_DATA_DIR: tempDir() });
    children.push(source);
    const [a, b] = await Promise.all([bundled.call('GET', '/openapi.json'), source.call('GET', '/openapi.json')]);
    expect(a.status).toBe(200);
    expect(a.body).toEqual(b.body);
  }, 120_000);

  it('parses on the event loop with the analysis table of its own copy of the modules', async () => {
    // With no parse threads, the analysis' table is loaded in the process itself: through the import its module
    // handed over, not by its address (a source file here, which plain node cannot load; in dist/, a second copy of
    // every module beside the bundle's).
    const inline = await spawnService({ AEQ_DATA_DIR: tempDir(), AEQ_PARSE_THREADS: '0' }, 30_000, [entry]);
    children.push(inline);
    const influence = await inline.call('POST', '/v1/source-influence', {
      answer: 'Trail shoes need a grippy outsole [1].',
      citations: ['https://example.com/trail-shoes'],
    });
    expect(influence.status).toBe(202);
    const done = await waitDone(inline, influence.body.task.id as string);
    expect((done.task as { status: string }).status, JSON.stringify(done).slice(0, 500)).toBe('COMPLETED');
  }, 60_000);
});
