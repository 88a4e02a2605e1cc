// The parse pool's worker when the service runs from its TypeScript sources (vitest, tsx, the quick
// bench): Node 20 ignores `--import tsx` in a worker's execArgv, so tsx is registered here, in the
// worker thread, before the worker module is loaded. The built service (dist/) never loads this file.
import { register } from 'tsx/esm/api';

register();
const { default: runParse } = await import('./worker.ts');
export default runParse;
