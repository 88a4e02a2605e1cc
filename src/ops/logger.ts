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
          '*.headers.authorization',
          '*.headers.cookie',
          // Provider and proxy credentials travel in these headers too (Gemini, undici ProxyAgent).
          'headers["x-goog-api-key"]',
          '*.headers["x-goog-api-key"]',
          'headers["proxy-authorization"]',
          '*.headers["proxy-authorization"]',
          '*.secret',
          '*.apiKey',
          '*.password',
          'secret',
          'apiKey',
          'password',
          // Engine config and pool objects, if one is ever logged whole: provider keys, the forum's
          // OAuth client secret, proxy URLs (which carry the proxy password), socket access tokens.
          'upstream.apiKey',
          '*.upstream.apiKey',
          'upstream.options.clientSecret',
          '*.upstream.options.clientSecret',
          'options.clientSecret',
          '*.options.clientSecret',
          'clientSecret',
          '*.clientSecret',
          'proxyUrl',
          '*.proxyUrl',
          'accessToken',
          '*.accessToken',
        ],
        censor: '[redacted]',
      },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination ?? pino.destination({ sync: false }),
  );
}
