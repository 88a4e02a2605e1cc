import pino, { type Logger } from 'pino';

/**
 * Structured JSON logs. Anything that could carry a secret (authorization headers, account
 * secrets, API keys, cookies) is redacted by path, so a careless log line cannot leak it.
 */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'aeq' },
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers.cookie',
          'headers.authorization',
          'headers.cookie',
          '*.secret',
          '*.apiKey',
          '*.password',
          'secret',
          'apiKey',
          'password',
        ],
        censor: '[redacted]',
      },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination ?? pino.destination({ sync: false }),
  );
}
