import { schemaCompiler } from '../config/json-schemas.js';
import { dateTimeMs } from '../domain/clock.js';

/**
 * One instance for every route that reads numbers from its query string (schemas compiled once, at start); `date-time`
 * is read as RFC 3339 (the task list's and the export's windows).
 */
const coercing = schemaCompiler({
  allErrors: true,
  coerceTypes: true,
  useDefaults: true,
  formats: { 'date-time': (s: string) => dateTimeMs(s) !== null },
});

/**
 * A route's validator compiler where the query string, which is text, is read as its schema says (numbers as
 * numbers, defaults filled in). Bodies are never coerced: the server's own compiler keeps them strict (server.ts).
 */
export function coercedQuery(querySchema: object) {
  const validateQuery = coercing(querySchema);
  return ({ httpPart, schema }: { httpPart?: string; schema: object }) =>
    httpPart === 'querystring' ? validateQuery : coercing(schema);
}
