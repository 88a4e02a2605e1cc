import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';

/** The lock file (an empty SQLite database held in an exclusive transaction) and the note naming its holder. */
const LOCK_FILE = 'aeq.lock';
const HOLDER_FILE = 'aeq.lock.holder.json';

/** Who holds a data dir: written by the holder once it has the lock, read by a process that is refused. */
export interface DataDirHolder {
  pid: number;
  host: string;
  startedAt: string;
  role: string;
}

export class DataDirLockedError extends Error {
  override name = 'DataDirLockedError';
  constructor(
    readonly dataDir: string,
    readonly holder: DataDirHolder | null,
  ) {
    super(
      `the data dir ${dataDir} is in use by ${
        holder
          ? `process ${holder.pid} on ${holder.host} (aeq ${holder.role}, started ${holder.startedAt})`
          : 'another process'
      }: one aeq process per SQLite data dir. Stop it, or give this one another AEQ_DATA_DIR (or a DATABASE_URL ` +
        'for several processes)',
    );
  }
}

export interface DataDirLock {
  release(): void;
}

/**
 * One process per SQLite data dir. The lock is SQLite's own: an exclusive transaction on `aeq.lock`, opened without
 * a busy timeout and held for the process's life. It is a POSIX record lock (fcntl) that the kernel drops when the
 * process ends in any way, kill -9 included, so a crash never leaves a stale lock to clean up (a PID file would, and
 * its PID may be reused). Like SQLite itself it needs a local disk: NFS locking is not to be trusted.
 */
export function lockDataDir(dataDir: string, role: string): DataDirLock {
  fs.mkdirSync(dataDir, { recursive: true });
  const db = new BetterSqlite3(path.join(dataDir, LOCK_FILE), { timeout: 0 });
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
  } catch (e) {
    db.close();
    if ((e as { code?: string }).code === 'SQLITE_BUSY') throw new DataDirLockedError(dataDir, readHolder(dataDir));
    throw e;
  }
  const holder: DataDirHolder = { pid: process.pid, host: os.hostname(), startedAt: new Date().toISOString(), role };
  fs.writeFileSync(path.join(dataDir, HOLDER_FILE), `${JSON.stringify(holder)}\n`);
  return {
    release() {
      if (!db.open) return;
      fs.rmSync(path.join(dataDir, HOLDER_FILE), { force: true });
      db.exec('ROLLBACK');
      db.close();
    },
  };
}

function readHolder(dataDir: string): DataDirHolder | null {
  try {
    const h = JSON.parse(fs.readFileSync(path.join(dataDir, HOLDER_FILE), 'utf8')) as Partial<DataDirHolder>;
    if (typeof h.pid !== 'number' || typeof h.host !== 'string') return null;
    return { pid: h.pid, host: h.host, startedAt: String(h.startedAt ?? '?'), role: String(h.role ?? '?') };
  } catch {
    return null;
  }
}
