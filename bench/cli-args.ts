import { parseArgs, type ParseArgsConfig } from 'node:util';

/**
 * A bench or corpus script's options: `--help` prints its usage and exits; an unknown or malformed option, or a
 * stray argument, is a one-line error and the usage, exit status 2 (never a stack trace).
 */
export function scriptArgs<const O extends NonNullable<ParseArgsConfig['options']>>(usage: string, options: O) {
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(`${usage.trim()}\n`);
    process.exit(0);
  }
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: false }).values;
  } catch (e) {
    process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n\n${usage.trim()}\n`);
    process.exit(2);
  }
}
