#!/usr/bin/env node
import { Command, CommanderError } from 'commander';
import { SettingsError } from '../config/settings.js';
import { registerAccounts } from './commands/accounts.js';
import { registerClientCommands } from './commands/client-commands.js';
import { registerMcp } from './commands/mcp.js';
import { registerRun } from './commands/run.js';
import { registerService } from './commands/service.js';
import { registerWebhooks } from './commands/webhooks.js';
import { StudyError, UsageError, isAeqError } from './errors.js';
import { InputError } from './study/input.js';
import { coerceError } from '../domain/coerce-error.js';

/**
 * `aeq`: the service (`serve`, the default, is what `npm start` runs), its administration, and the client
 * commands (`run`, `tasks`, `export`, `research`, `influence`, `webhooks`) that talk to any aeq over HTTP, and `mcp`,
 * the MCP server over stdio for a desktop assistant.
 */
export function buildProgram(): Command {
  const program = new Command('aeq')
    .description('aeq: asynchronous answer-engine queries: the service, and the client that runs studies on it')
    .showHelpAfterError('(run aeq help or aeq COMMAND --help for the options)')
    .exitOverride();
  registerService(program);
  registerAccounts(program);
  registerRun(program);
  registerClientCommands(program);
  registerWebhooks(program);
  registerMcp(program);
  return program;
}

/** How a failure reads on the terminal, and the exit status: 2 for what the caller wrote, 1 for the rest. */
function report(e: unknown): number {
  // Commander has printed its message; a mistake in the command line is a usage error (2), help is not an error.
  if (e instanceof CommanderError) return e.exitCode === 0 ? 0 : 2;
  if (e instanceof UsageError || e instanceof InputError || e instanceof SettingsError) {
    process.stderr.write(`aeq: ${e.message}\n`);
    return 2;
  }
  if (isAeqError(e)) {
    // A status means the service answered; without one the client gave up (no answer, or waited too long).
    process.stderr.write(
      e.status
        ? `aeq: the service refused: ${e.code} (HTTP ${e.status}): ${e.message}\n`
        : `aeq: ${e.code}: ${e.message}\n`,
    );
    return 1;
  }
  if (e instanceof StudyError) {
    process.stderr.write(`aeq: ${e.message}\n`);
    return 1;
  }
  // Our own bug or the system's: the message, and the stack when asked for (AEQ_DEBUG=1).
  const stack = process.env.AEQ_DEBUG && e instanceof Error ? e.stack : undefined;
  process.stderr.write(`aeq: ${stack ?? coerceError(e).message}\n`);
  return 1;
}

buildProgram()
  .parseAsync(process.argv)
  .catch((e: unknown) => {
    process.exitCode = report(e);
  });
