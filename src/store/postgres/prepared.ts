import type pg from 'pg';

/**
 * Runs a hot-path statement as a named prepared statement: parsed and planned once per connection of the pool, then
 * only bound and executed (the driver no longer sends its text either). Kysely has no named statements, so the
 * statements of the PostgreSQL hot path (claim, finish, submit, heartbeat, pool leases) are fixed texts with `$n`
 * parameters, run through the pool Kysely uses.
 */
export type PreparedQuery = <R extends pg.QueryResultRow>(
  name: string,
  text: string,
  values: unknown[],
) => Promise<pg.QueryResult<R>>;

export function preparedQuery(pool: pg.Pool): PreparedQuery {
  return <R extends pg.QueryResultRow>(name: string, text: string, values: unknown[]) =>
    pool.query<R>({ name, text, values });
}

/** The same, with the rows as arrays of values in the statement's column order (no object per row). */
export type PreparedArrayQuery = <R extends unknown[]>(
  name: string,
  text: string,
  values: unknown[],
) => Promise<pg.QueryArrayResult<R>>;

export function preparedArrayQuery(pool: pg.Pool): PreparedArrayQuery {
  return <R extends unknown[]>(name: string, text: string, values: unknown[]) =>
    pool.query<R>({ name, text, values, rowMode: 'array' });
}
