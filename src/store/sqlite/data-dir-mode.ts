import fs from 'node:fs';
import path from 'node:path';

/** The file that says whose store a data dir holds: the sandbox's or the live service's. */
const MODE_FILE = 'aeq.mode';

/** `sandbox`: made by a service with AEQ_SANDBOX=1 (its upstreams the simulator); `live`: the real upstreams. */
export type DataDirMode = 'sandbox' | 'live';

export class DataDirModeError extends Error {
  override name = 'DataDirModeError';
  constructor(
    readonly dataDir: string,
    readonly recorded: DataDirMode,
    readonly wanted: DataDirMode,
  ) {
    super(
      recorded === 'sandbox'
        ? `the data dir ${dataDir} holds the sandbox's store (made with AEQ_SANDBOX=1): without the sandbox its ` +
            'queued tasks would go to the real upstreams. Give this process another AEQ_DATA_DIR (the sandbox ' +
            'defaults to ./data/sandbox), start it with AEQ_SANDBOX=1, or delete the directory to start afresh'
        : `the data dir ${dataDir} holds a live store (made without AEQ_SANDBOX): in the sandbox its tasks would be ` +
            "answered by the simulator. Give this process another AEQ_DATA_DIR (the sandbox's default, " +
            './data/sandbox, when AEQ_DATA_DIR is unset), or start it without AEQ_SANDBOX',
    );
  }
}

/**
 * A data dir serves one mode for its life: the first process to use it records its mode, and a process of the other
 * mode is refused before it reads anything (the live service would run the sandbox's queued tasks against the real
 * hosts; the sandbox would answer live clients' tasks from the simulator). Called with the data dir's lock held, so
 * two processes cannot both record.
 */
export function claimDataDirMode(dataDir: string, mode: DataDirMode): void {
  const file = path.join(dataDir, MODE_FILE);
  let recorded: string;
  try {
    recorded = fs.readFileSync(file, 'utf8').trim();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    fs.writeFileSync(file, `${mode}\n`);
    return;
  }
  if (recorded !== 'sandbox' && recorded !== 'live')
    throw new Error(`${file} says ${JSON.stringify(recorded)}, not sandbox or live: remove it or fix it by hand`);
  if (recorded !== mode) throw new DataDirModeError(dataDir, recorded, mode);
}
