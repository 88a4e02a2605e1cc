import { stringify } from 'csv-stringify/sync';

/**
 * One CSV record (with its line end) of a file a person opens in a spreadsheet. Answers and error text come from
 * upstreams a tenant may steer, so a cell starting with `=`, `+`, `-`, `@`, a tab or a carriage return gets a
 * leading `'` (OWASP, CSV injection): `=HYPERLINK(…)` then shows as text instead of becoming a live formula.
 * Numbers are written as they are (a negative number stays a number).
 */
export function csvRecord(cells: readonly (string | number)[]): string {
  return stringify([cells as (string | number)[]], { escape_formulas: true });
}
