import { Ajv } from 'ajv';

/** One instance for every route that reads numbers from its query string (schemas compiled once, at start). */
const coercing = new Ajv({ allErrors: true, coerceTypes: true, useDefaults: true });

/**
 * A route's validator compiler where the query string, which is text, is read as its schema says (numbers as
 * numbers, defaults filled in). Bodies are never coerced: the server's own compiler keeps them strict (server.ts).
 */
export function coercedQuery(querySchema: object) {
  const validateQuery = coercing.compile(querySchema);
  return ({ httpPart, schema }: { httpPart?: string; schema: object }) =>
    httpPart === 'querystring' ? validateQuery : coercing.compile(schema);
}
