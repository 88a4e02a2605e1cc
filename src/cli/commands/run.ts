import path from 'node:path';
import type { Command } from 'commander';
import { CONNECTION_HELP, connect } from '../connection.js';
import { STUDY_ENGINES } from '../study/plan.js';
import { runStudy } from '../study/runner.js';
import { summarize, summaryText } from '../study/summary.js';
import { connectOptions, intIn, upperList, withConnection } from './options.js';

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
}

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
${CONNECTION_HELP}

Engines: ${STUDY_ENGINES.join(', ')}

Example: aeq run prompts.csv --engines CHATBOT_A,SEARCH_A --countries US,KR --csv --sandbox`,
    )
    .action(async (file: string, flags: RunFlags & Record<string, unknown>) => {
      const base = file.replace(/\.(csv|jsonl|ndjson|txt)$/i, '');
      const out = flags.out ?? `${base}.results.jsonl`;
      const csv = flags.csv === true ? `${base}.results.csv` : typeof flags.csv === 'string' ? flags.csv : null;
      const conn = await connect(connectOptions(flags));
      const abort = new AbortController();
      const onSignal = () => abort.abort(new Error('interrupted'));
      process.once('SIGINT', onSignal);
      process.once('SIGTERM', onSignal);
      try {
        if (conn.simulated)
          process.stderr.write(`aeq run: sandbox service on ${conn.url} (store in ${flags.sandboxDir})\n`);
        const report = await runStudy(
          {
            input: file,
            format: flags.format,
            engines: flags.engines ?? [],
            countries: flags.countries ?? [],
            out,
            csv,
            batchSize: flags.batchSize,
            pollIntervalMs: flags.pollInterval,
            progressEveryMs: flags.progressEvery,
          },
          { client: conn.client, progress: process.stderr, signal: abort.signal },
        );
        const summary = summarize(report, conn.simulated);
        const files = [out, ...(csv ? [csv] : [])].map((f) => path.relative(process.cwd(), f) || f);
        process.stdout.write(flags.json ? `${JSON.stringify({ ...summary, files })}\n` : summaryText(summary, files));
        process.exitCode = report.interrupted ? 130 : 0;
      } finally {
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
        await conn.close();
      }
    });
}
