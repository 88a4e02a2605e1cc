import type { Command } from 'commander';
import { CONNECTION_HELP, connectOptions, withConnection } from './options.js';

/** `aeq mcp`: the MCP server over stdio, for a desktop assistant (docs/mcp.md). */
export function registerMcp(program: Command): void {
  withConnection(program.command('mcp'))
    .description(
      'an MCP server on standard input and output for a desktop assistant: its tools and resources call the service ' +
        'with the key given (nothing but JSON-RPC is written to stdout)',
    )
    .addHelpText('after', CONNECTION_HELP)
    .action(async (flags: Record<string, unknown>) => {
      const { serveMcpOverStdio } = await import('../mcp-stdio.js');
      await serveMcpOverStdio(connectOptions(flags));
    });
}
