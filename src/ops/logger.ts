import pino, { type Logger } from 'pino';
import { scrubSecrets } from './log-scrub.js';

/**
 * Structured JSON logs. Anything that could carry a secret (authorization headers, account
 * secrets, API keys, cookies, proxy URLs) is censored by property name, so a careless log line cannot leak it.
 */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  const root = pino(
    {
      level,
      base: { service: 'aeq' },
      // Credentials are censored by property name at any depth, in lines and in child loggers' bindings
      // (log-scrub.ts says why not pino's path redaction).
      formatters: { log: scrubSecrets, bindings: scrubSecrets },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination ?? pino.destination({ sync: false }),
  );
  // A child's bindings skip the root's bindings formatter (pino resets it for children), so they are scrubbed here;
  // every child inherits this method from the root.
  type ChildOf = (this: Logger, bindings: pino.Bindings, options?: pino.ChildLoggerOptions) => Logger;
  const child = root.child as unknown as ChildOf;
  const scrubbedChild: ChildOf = function (bindings, options) {
    return child.call(this, scrubSecrets(bindings), options);
  };
  root.child = scrubbedChild as unknown as Logger['child'];
  return root;
}
