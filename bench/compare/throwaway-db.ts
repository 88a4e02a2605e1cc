import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** Where the per-run databases are created and dropped (the machine's PostgreSQL, trust auth). */
const ADMIN_URL = process.env.AEQ_BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface ThrowawayDatabase {
  url: string;
  drop(): Promise<void>;
}

async function admin(sql: string): Promise<void> {
  const c = new pg.Client({ connectionString: ADMIN_URL });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

/** A fresh, empty database for one run, so that no run inherits another's rows or bloat. */
export async function createThrowawayDatabase(prefix: string): Promise<ThrowawayDatabase> {
  // Hex only: the name is interpolated into DDL, which takes no parameters.
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await admin(`create database ${name}`);
  const u = new URL(ADMIN_URL);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    // `with (force)` ends connections a stopped pool may still be closing.
    drop: () => admin(`drop database if exists ${name} with (force)`),
  };
}
