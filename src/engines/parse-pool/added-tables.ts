/**
 * Modules (file URLs) of the parse tables that layers above add (the analysis'); every parse thread loads them beside
 * the engines' own table (parsers.ts). Apart from that table so that adding one, which the composition root does at
 * every start, does not load every engine's parsers: the pool loads those in its threads, or on its first inline parse.
 */
const addedTables = new Set<string>();

/** Adds a module exporting a `PARSERS` table; called by that module itself when it is loaded. */
export function addParserTable(moduleUrl: string): void {
  addedTables.add(moduleUrl);
}

export function addedParserTables(): string[] {
  return [...addedTables];
}
