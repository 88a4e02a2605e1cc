import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { artifactKindOf } from '../../domain/artifact.js';
import { taskIdTime } from '../../domain/task-id.js';
import type { ArtifactFile, ArtifactFiles, ArtifactRef } from '../ports.js';

const HOUR_MS = 3_600_000;
/** A task id as the service makes them (a lower-case UUID of version 7): the only first path segment accepted. */
const TASK_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
/** An hour's folder: `YYYYMMDDHH` of the tasks' creation, UTC. */
const HOUR_DIR = /^\d{10}$/;
/** Attempts are counted from 1; a bound keeps a path segment short whatever the row says. */
const MAX_ATTEMPT = 10_000;

/**
 * The artefacts' files in a directory: `<root>/<hour of creation>/<task id>/<attempt>/<name>`. Every segment is made
 * by the service (a validated task id, an integer, one of the fixed names), never taken from a request, so no path
 * can leave the root. Grouping by the hour the task was created lets the retention sweep delete whole hours at once,
 * from the ids alone; each attempt has its own folder, so a worker that lost its lease and writes late never replaces
 * the files of the attempt that finished the task.
 *
 * A directory rather than PostgreSQL large objects: a large object must be unlinked by hand or it is orphaned, every
 * screenshot would go through the database's WAL, replicas and backups for a day's life, and a ranged read would hold
 * a transaction open for the whole download. On PostgreSQL with several hosts the operator names one shared directory
 * (AEQ_ARTIFACT_DIR on a network file system every worker and API process mounts); docs/operations.md.
 */
export function openArtifactDirectory(root: string): ArtifactFiles {
  const absolute = path.resolve(root);
  return {
    location: absolute,
    write: (a) => writeAtomic(absolute, a),
    open: (a) => openFile(absolute, a),
    purgeBefore: (before) => purgeBefore(absolute, before),
  };
}

/** The file's path, or an Error when a segment is not one the service makes (a bug: callers pass what it made). */
function fileOf(root: string, { taskId, attempt, name }: ArtifactRef): string {
  const created = TASK_ID.test(taskId) ? taskIdTime(taskId) : null;
  if (created === null) throw new Error('artifact path: not a task id');
  if (!Number.isSafeInteger(attempt) || attempt < 1 || attempt > MAX_ATTEMPT) throw new Error('artifact path: attempt');
  if (artifactKindOf(name) === null) throw new Error('artifact path: not an artefact name');
  return path.join(root, hourOf(created), taskId, String(attempt), name);
}

function hourOf(ms: number): string {
  const d = new Date(ms);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCFullYear()}${two(d.getUTCMonth() + 1)}${two(d.getUTCDate())}${two(d.getUTCHours())}`;
}

/** The start of an hour folder's hour (ms), or null for a name that is not one. */
function hourStart(name: string): number | null {
  if (!HOUR_DIR.test(name)) return null;
  const t = Date.UTC(
    Number(name.slice(0, 4)),
    Number(name.slice(4, 6)) - 1,
    Number(name.slice(6, 8)),
    Number(name.slice(8, 10)),
  );
  return Number.isFinite(t) ? t : null;
}

/**
 * Written to a temporary name in the same folder, flushed, then renamed over the final name: a rename within a file
 * system is atomic, so a reader (or a crash) sees the whole file or none, never a part.
 */
async function writeAtomic(root: string, a: ArtifactRef & { bytes: Uint8Array }): Promise<void> {
  const file = fileOf(root, a);
  await fsp.mkdir(path.dirname(file), { recursive: true });
  const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  const handle = await fsp.open(temp, 'wx', 0o600);
  try {
    await handle.writeFile(a.bytes);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await fsp.rename(temp, file);
  } catch (e) {
    await fsp.rm(temp, { force: true });
    throw e;
  }
}

async function openFile(root: string, a: ArtifactRef): Promise<ArtifactFile | null> {
  const file = fileOf(root, a);
  let size: number;
  try {
    const st = await fsp.stat(file);
    if (!st.isFile()) return null;
    size = st.size;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
  return {
    size,
    stream: (range) => fs.createReadStream(file, range ? { start: range.start, end: range.end } : {}),
  };
}

/**
 * Deletes the folders of tasks created before `before`: whole hours that ended by then, and in the hour that holds
 * `before` the tasks whose id says they were created earlier. Only folders whose names the service makes are touched.
 */
async function purgeBefore(root: string, before: number): Promise<number> {
  let hours: string[];
  try {
    hours = await fsp.readdir(root);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw e;
  }
  let purged = 0;
  for (const hour of hours) {
    const start = hourStart(hour);
    if (start === null || start >= before) continue;
    const dir = path.join(root, hour);
    const tasks = (await fsp.readdir(dir).catch(() => [] as string[])).filter((t) => TASK_ID.test(t));
    if (start + HOUR_MS <= before) {
      await fsp.rm(dir, { recursive: true, force: true });
      purged += tasks.length;
      continue;
    }
    for (const t of tasks) {
      const created = taskIdTime(t);
      if (created === null || created >= before) continue;
      await fsp.rm(path.join(dir, t), { recursive: true, force: true });
      purged++;
    }
  }
  return purged;
}
