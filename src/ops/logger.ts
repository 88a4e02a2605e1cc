import pino, { type Logger } from 'pino';
import { scrubSecrets } from './log-scrub.js';

/**
 * Structured JSON logs. Anything that could carry a secret (authorization headers, account secrets, API keys,
 * cookies, tokens, proxy URLs, a URL's user and password) is censored, so a careless log line cannot leak it
 * (log-scrub.ts: by property name at any depth, and why not pino's path redaction).
 */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  const root = pino(
    {
      level,
      base: { service: 'aeq' },
      hooks: {
        // Every argument of a call, before pino reads it: the line's object, its message and any interpolated
        // value. A call below the level never gets here.
        logMethod(args, method) {
          for (let i = 0; i < args.length; i++) args[i] = scrubSecrets(args[i]);
          method.apply(this, args);
        },
      },
      formatters: { bindings: scrubSecrets },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination ?? pino.destination({ sync: false }),
  );
  // A child's bindings skip the root's bindings formatter (pino resets it for children), and setBindings skips the
  // child: both are scrubbed here. Every child inherits these methods, and the hook, from the root.
  type ChildOf = (this: Logger, bindings: pino.Bindings, options?: pino.ChildLoggerOptions) => Logger;
  const child = root.child as unknown as ChildOf;
  const scrubbedChild: ChildOf = function (bindings, options) {
    return child.call(this, scrubSecrets(bindings), options);
  };
  root.child = scrubbedChild as unknown as Logger['child'];
  const setBindings = root.setBindings;
  root.setBindings = function (this: Logger, bindings: pino.Bindings) {
    setBindings.call(this, scrubSecrets(bindings));
  };
  return root;
}
