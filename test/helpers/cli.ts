import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The `aeq` command as an operator runs it, from the sources (the client package through its development entry). */
export const AEQ_COMMAND = [
  process.execPath,
  '--conditions=development',
  '--import',
  pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href,
  path.join(ROOT, 'src/cli/main.ts'),
];

export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliProcess {
  proc: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  done: Promise<CliRun>;
}

/** Starts `aeq ARGS` in `cwd` with only the given environment (plus PATH and HOME); stdout and stderr are pipes. */
export function startCli(args: string[], o: { cwd: string; env?: Record<string, string> }): CliProcess {
  const [cmd, ...pre] = AEQ_COMMAND as [string, ...string[]];
  const proc = spawn(cmd, [...pre, ...args], {
    cwd: o.cwd,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...o.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  proc.stdout?.on('data', (c: Buffer) => (out += c.toString('utf8')));
  proc.stderr?.on('data', (c: Buffer) => (err += c.toString('utf8')));
  const done = new Promise<CliRun>((resolve) =>
    proc.once('close', (code, signal) => resolve({ code, signal, stdout: out, stderr: err })),
  );
  return { proc, stdout: () => out, stderr: () => err, done };
}

export function runCli(args: string[], o: { cwd: string; env?: Record<string, string> }): Promise<CliRun> {
  return startCli(args, o).done;
}

/** Quotes words for `sh -c` (the pseudo-terminal test runs the command through `script`). */
export function shellWords(words: string[]): string {
  return words.map((w) => `'${w.replace(/'/g, `'\\''`)}'`).join(' ');
}
