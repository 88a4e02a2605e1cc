import pg from 'pg';
import type { TestProject } from 'vitest/node';

/**
 * For the `postgres` test project: one throwaway database for the whole run (each test then works
 * in its own schema inside it), dropped at the end.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const admin = process.env.AEQ_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `aeq_test_${process.pid}_${Date.now()}`;
  const c = new pg.Client({ connectionString: admin });
  await c.connect();
  await c.query(`create database ${name}`);
  await c.end();
  const u = new URL(admin);
  u.pathname = `/${name}`;
  project.provide('pgDatabaseUrl', u.toString());
  return async () => {
    const d = new pg.Client({ connectionString: admin });
    await d.connect();
    await d.query(`drop database if exists ${name} with (force)`);
    await d.end();
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgDatabaseUrl: string;
  }
}
