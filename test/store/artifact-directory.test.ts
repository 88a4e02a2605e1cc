import fs from 'node:fs';
import path from 'node:path';
import { text } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { newTaskId } from '../../src/domain/task-id.js';
import { openArtifactDirectory } from '../../src/store/artifacts/directory.js';
import { tempDir } from '../helpers/service.js';

const HOUR = 3_600_000;
const bytes = (s: string) => new TextEncoder().encode(s);

/** Every file under `root`, relative, sorted. */
function filesUnder(root: string): string[] {
  if (!fs.existsSync(root)) return [];
  return fs
    .readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => path.relative(root, path.join(d.parentPath, d.name)))
    .sort();
}

/** The artefacts' directory (src/store/artifacts/directory.ts): paths, atomic writes, reads, the purge by age. */
describe('artifact directory', () => {
  it("keeps a file under its task's hour, attempt and fixed name; reads it whole or in part", async () => {
    const root = tempDir();
    const files = openArtifactDirectory(root);
    const created = Date.UTC(2026, 10, 24, 7, 30);
    const taskId = newTaskId(created);
    await files.write({ taskId, attempt: 2, name: 'raw.json', bytes: bytes('{"answer":"forty-two"}') });
    expect(filesUnder(root)).toEqual([path.join('2026112407', taskId, '2', 'raw.json')]);
    const file = await files.open({ taskId, attempt: 2, name: 'raw.json' });
    expect(file?.size).toBe(22);
    expect(await text(file?.stream() ?? fs.createReadStream('/dev/null'))).toBe('{"answer":"forty-two"}');
    expect(await text(file?.stream({ start: 11, end: 20 }) ?? fs.createReadStream('/dev/null'))).toBe('forty-two"');
    // Another attempt's or another name's file is not there.
    expect(await files.open({ taskId, attempt: 1, name: 'raw.json' })).toBeNull();
    expect(await files.open({ taskId, attempt: 2, name: 'page.html' })).toBeNull();
  });

  it('replaces a file whole: no temporary file is left, and a reader sees one version or the other', async () => {
    const root = tempDir();
    const files = openArtifactDirectory(root);
    const taskId = newTaskId(Date.now());
    const a = bytes('a'.repeat(200_000));
    const b = bytes('b'.repeat(100_000));
    await files.write({ taskId, attempt: 1, name: 'page.html', bytes: a });
    const reads: string[] = [];
    await Promise.all([
      files.write({ taskId, attempt: 1, name: 'page.html', bytes: b }),
      (async () => {
        for (let i = 0; i < 20; i++) {
          const f = await files.open({ taskId, attempt: 1, name: 'page.html' });
          reads.push(await text(f?.stream() ?? fs.createReadStream('/dev/null')));
        }
      })(),
    ]);
    for (const r of reads) expect(r === 'a'.repeat(200_000) || r === 'b'.repeat(100_000)).toBe(true);
    expect(filesUnder(root)).toHaveLength(1);
    expect(filesUnder(root)[0]).toMatch(/page\.html$/);
  });

  it('refuses any segment the service does not make', async () => {
    const files = openArtifactDirectory(tempDir());
    const taskId = newTaskId(Date.now());
    const b = bytes('x');
    await expect(files.write({ taskId: '../../etc', attempt: 1, name: 'raw.json', bytes: b })).rejects.toThrow();
    // A UUID of another version carries no creation time: not a task id the service made.
    const v4 = '6f1c3e2a-9b7d-4c1e-8a2b-3c4d5e6f7a8b';
    await expect(files.write({ taskId: v4, attempt: 1, name: 'raw.json', bytes: b })).rejects.toThrow();
    await expect(files.write({ taskId, attempt: 0, name: 'raw.json', bytes: b })).rejects.toThrow();
    await expect(files.write({ taskId, attempt: 1.5, name: 'raw.json', bytes: b })).rejects.toThrow();
    await expect(files.write({ taskId, attempt: 1, name: '../raw.json', bytes: b })).rejects.toThrow();
    await expect(files.write({ taskId, attempt: 1, name: 'notes.txt', bytes: b })).rejects.toThrow();
    await expect(files.open({ taskId, attempt: 1, name: '..' })).rejects.toThrow();
  });

  it('purges the tasks created before a time: whole past hours, and in its own hour by the id', async () => {
    const root = tempDir();
    const files = openArtifactDirectory(root);
    const base = Date.UTC(2026, 10, 24, 10, 0);
    const ids = {
      twoHoursBefore: newTaskId(base - 2 * HOUR + 5),
      sameHourBefore: newTaskId(base + 10 * 60_000),
      sameHourAfter: newTaskId(base + 40 * 60_000),
      nextHour: newTaskId(base + HOUR + 1),
    };
    for (const taskId of Object.values(ids))
      await files.write({ taskId, attempt: 1, name: 'raw.json', bytes: bytes('{}') });
    // Something the service did not make stays whatever its age.
    fs.mkdirSync(path.join(root, 'operator-notes'));
    fs.writeFileSync(path.join(root, 'operator-notes', 'keep.txt'), 'mine');

    expect(await files.purgeBefore(base + 30 * 60_000)).toBe(2);
    const left = filesUnder(root).join('\n');
    expect(left).not.toContain(ids.twoHoursBefore);
    expect(left).not.toContain(ids.sameHourBefore);
    expect(left).toContain(ids.sameHourAfter);
    expect(left).toContain(ids.nextHour);
    expect(left).toContain('keep.txt');
    expect(await files.purgeBefore(base + 30 * 60_000)).toBe(0);
    // A directory not made yet is nothing to purge.
    expect(await openArtifactDirectory(path.join(root, 'none')).purgeBefore(Date.now())).toBe(0);
  });
});
