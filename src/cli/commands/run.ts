import path from 'node:path';
import type { Command } from 'commander';
import { STUDY_ENGINES } from '../study/plan.js';
import { CONNECTION_HELP, connectOptions, intIn, upperList, withConnection } from './options.js';

interface RunFlags {
  engines?: string[];
  countries?: string[];
  format?: string;
  out?: string;
  csv?: string | boolean;
  batchSize: number;
  pollInterval: number;
  progressEvery: number;
  json?: boolean;
  sandboxDir?: string;
}

/** Exit status of a study that ended with tasks the service refused for now: run it again later. */
const EXIT_DEFERRED = 3;

/** `aeq run FILE`: a whole study (prompts × engines × countries) with progress, resume and export. */
export function registerRun(program: Command): void {
  withConnection(
    program
      .command('run')
      .description('run a study: every prompt of FILE on every engine and country, results to JSONL (and CSV)')
      .argument('<file>', 'prompts: CSV with a prompt column (and optional engine, country), JSONL, or one per line')
      .option('-e, --engines <list>', 'engines for rows without an engine column, e.g. CHATBOT_A,SEARCH_A', upperList)
      .option(
        '-c, --countries <list>',
        "countries for rows without a country column (default: the engine's)",
        upperList,
      )
      .option('--format <format>', 'csv, jsonl or lines (default: from the file extension)')
      .option('-o, --out <file>', 'JSONL results, one task per line (default: FILE.results.jsonl)')
      .option('--csv [file]', 'also write a flat CSV (default file: FILE.results.csv)')
      .option('--batch-size <n>', 'tasks per batch request', intIn(1, 500), 500)
      .option('--poll-interval <ms>', 'time between polls of the batches', intIn(100, 60_000), 1000)
      .option(
        '--progress-every <ms>',
        'time between progress lines when not on a terminal',
        intIn(100, 3_600_000),
        5000,
      )
      .option('--json', 'print the summary as JSON'),
  )
    .addHelpText(
      'after',
      `
Each task's idempotency key comes from the file's content, the row, the engine and the country. Running the same
command again (after Ctrl-C or a crash) resumes: what was submitted is not submitted again, what is written is not
fetched again. The journal of submissions is kept beside the results (OUT.journal).

Exit status: 0 when every task has ended (failed tasks are results), ${EXIT_DEFERRED} when the service refused some for
now (REGION_UNAVAILABLE, ENQUEUE_ERROR: run again later), 130 when interrupted, 2 for a usage error, 1 otherwise.
${CONNECTION_HELP}

Engines: ${STUDY_ENGINES.join(', ')}

Example: aeq run prompts.csv --engines CHATBOT_A,SEARCH_A --countries US,KR --csv --sandbox`,
    )
    .action(async (file: string, flags: RunFlags & Record<string, unknown>) => {
      const [{ connect }, { planFromFile, runStudy }, { summarize, summaryText }] = await Promise.all([
        import('../connection.js'),
        import('../study/runner.js'),
        import('../study/summary.js'),
      ]);
      const base = file.replace(/\.(csv|jsonl|ndjson|txt)$/i, '');
      const out = path.resolve(flags.out ?? `${base}.results.jsonl`);
      const csv = flags.csv === true ? `${base}.results.csv` : typeof flags.csv === 'string' ? flags.csv : null;
      // The file and the options are checked before any service is contacted (or started).
      const planned = planFromFile({
        input: file,
        format: flags.format,
        engines: flags.engines ?? [],
        countries: flags.countries ?? [],
        out,
        csv: csv === null ? null : path.resolve(csv),
        batchSize: flags.batchSize,
        pollIntervalMs: flags.pollInterval,
        progressEveryMs: flags.progressEvery,
      });
      // An embedded sandbox keeps its store beside the results, so a re-run from anywhere finds its tasks.
      const sandboxDir = flags.sandboxDir ?? path.join(path.dirname(out), '.aeq-sandbox');
      const conn = await connect({ ...connectOptions(flags), sandboxDir });
      const abort = new AbortController();
      const onSignal = () => abort.abort(new Error('interrupted'));
      process.once('SIGINT', onSignal);
      process.once('SIGTERM', onSignal);
      try {
        if (conn.simulated) process.stderr.write(`aeq run: sandbox service on ${conn.url} (store in ${sandboxDir})\n`);
        const report = await runStudy(planned, { client: conn.client, progress: process.stderr, signal: abort.signal });
        const summary = summarize(report, conn.simulated);
        const files = [out, ...(csv ? [csv] : [])].map((f) => path.relative(process.cwd(), f) || f);
        process.stdout.write(flags.json ? `${JSON.stringify({ ...summary, files })}\n` : summaryText(summary, files));
        process.exitCode = report.interrupted ? 130 : summary.deferred > 0 ? EXIT_DEFERRED : 0;
      } finally {
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
        await conn.close();
      }
    });
}
