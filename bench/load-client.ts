import fs from 'node:fs';
import autocannon from 'autocannon';
import type { LoadClientResult, LoadJob } from './load.js';

/**
 * The load generator, in its own process so that it does not share the service's event loop.
 * It receives jobs over IPC from bench/load.ts, runs autocannon, and answers with the figures.
 */
async function runJob(job: LoadJob): Promise<LoadClientResult> {
  const paths = job.pathsFile ? (JSON.parse(fs.readFileSync(job.pathsFile, 'utf8')) as string[]) : null;
  let next = 0;
  const cpuBefore = process.cpuUsage();
  const result = await autocannon({
    url: job.url,
    method: job.method,
    headers: job.headers,
    ...(job.body !== undefined ? { body: job.body } : {}),
    connections: job.connections,
    duration: job.durationS,
    ...(paths
      ? {
          requests: [
            {
              // Rotates over the given paths (e.g. task ids spread over the whole store).
              setupRequest: (req) => {
                const p = paths[next++ % paths.length] ?? '/';
                return { ...req, path: p };
              },
            },
          ],
        }
      : {}),
  });
  const cpu = process.cpuUsage(cpuBefore);
  return {
    loadCpuMs: (cpu.user + cpu.system) / 1000,
    requestsPerS: result.requests.average,
    total: result.requests.total,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    ok2xx: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

process.on('message', (msg: { id: number; job: LoadJob }) => {
  runJob(msg.job).then(
    (r) => process.send?.({ id: msg.id, result: r }),
    (e: unknown) => process.send?.({ id: msg.id, error: e instanceof Error ? e.message : String(e) }),
  );
});
process.send?.({ ready: true });
