/**
 * Modules (file URLs) of the parse tables that layers above add (the analysis'); every parse thread loads them beside
 * the engines' own table (parsers.ts). Apart from that table so that adding one, which the composition root does at
 * every start, does not load every engine's parsers: the pool loads those in its threads, or on its first inline parse.
 */
const addedTables = new Map<string, () => Promise<AddedTable>>();

/** What an added table's module exports. */
export interface AddedTable {
  PARSERS: object;
}

/**
 * Adds a module exporting a `PARSERS` table; called by the module that owns it when it is loaded. Threads load the
 * table by its address (`moduleUrl`). A parse on the event loop loads it through `load`, an import the owner writes:
 * in the bundled service (build/service-bundle.ts) the address is a file of dist/ while the process runs the bundle's
 * copy of every module, and loading that file on the event loop would bring a second copy of the domain's classes,
 * whose errors the attempt's `instanceof` checks would then not know.
 */
export function addParserTable(moduleUrl: string, load: () => Promise<AddedTable>): void {
  addedTables.set(moduleUrl, load);
}

/** The added tables' addresses, for the threads. */
export function addedParserTables(): string[] {
  return [...addedTables.keys()];
}

/** The added tables, loaded in this thread. */
export function loadAddedTables(): Promise<AddedTable[]> {
  return Promise.all([...addedTables.values()].map((load) => load()));
}
