import type { WebhookSecret } from '@aeq/client';
import type { Command } from 'commander';
import { CONNECTION_HELP, connectOptions, withConnection } from './options.js';

/**
 * `aeq webhooks secret [--rotate]`: the account's webhook signing secret, which its receivers verify deliveries with;
 * `--rotate` makes a new one, the replaced one signing too for 24 hours.
 */
export function registerWebhooks(program: Command): void {
  const webhooks = program.command('webhooks').description("the account's webhook signing secret");
  withConnection(webhooks.command('secret'))
    .description("show the account's webhook signing secret (whsec_…), made on first use")
    .option('--rotate', 'make a new secret; the current one keeps signing for 24 hours so receivers can cut over')
    .option('--json', 'print the answer as JSON')
    .addHelpText('after', CONNECTION_HELP)
    .action(async (flags: Record<string, unknown> & { rotate?: boolean; json?: boolean }) => {
      const { connect } = await import('../connection.js');
      const c = await connect(connectOptions(flags));
      try {
        const answer = flags.rotate ? await c.client.rotateWebhookSecret() : await c.client.webhookSecret();
        process.stdout.write(flags.json ? `${JSON.stringify(answer)}\n` : secretText(answer));
      } finally {
        await c.close();
      }
    });
}

function secretText(a: WebhookSecret): string {
  const lines = [`secret     ${a.secret}`];
  if (a.source === 'configured') lines.push('source     AEQ_WEBHOOK_SECRET (the operator rotates it there)');
  else lines.push(`created    ${a.createdAt}`);
  if (a.previous) lines.push(`previous   ${a.previous.secret}`, `  signs until ${a.previous.expiresAt}`);
  return `${lines.join('\n')}\n`;
}
