import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/ops/logger.js';

/**
 * The logger's redaction paths: objects that hold credentials (engine configs, exit addresses,
 * accounts, request headers, attempt contexts) lose them even if a careless line logs them whole.
 */
describe('log redaction', () => {
  const capture = () => {
    const lines: string[] = [];
    const log = createLogger('info', { write: (chunk: string) => void lines.push(chunk) });
    return { log, text: () => lines.join('') };
  };
  const SECRETS = [
    'SECRET-api-key',
    'SECRET-gemini-key',
    'SECRET-client-secret',
    'SECRET-proxy-pw',
    'SECRET-account',
    'SECRET-token',
    'SECRET-bearer',
    'SECRET-proxy-auth',
  ];

  it('redacts credentials at the top level and one object down', () => {
    const { log, text } = capture();
    const engine = {
      mode: 'api',
      upstream: {
        baseUrl: 'https://x',
        headers: {},
        options: { clientId: 'id', clientSecret: 'SECRET-client-secret' },
        apiKey: 'SECRET-api-key',
      },
    };
    const exit = {
      id: 'exit-1',
      country: 'NL',
      proxyUrl: 'http://u:SECRET-proxy-pw@proxy.example:8080',
      maxConcurrent: 4,
    };
    const account = { id: 'a-1', country: 'US', secret: 'SECRET-account' };
    log.info(engine, 'engine config');
    log.info({ engine, exit, account }, 'attempt context');
    log.info(exit, 'exit address');
    log.info(
      {
        headers: {
          authorization: 'Bearer SECRET-bearer',
          'x-goog-api-key': 'SECRET-gemini-key',
          'proxy-authorization': 'Basic SECRET-proxy-auth',
        },
      },
      'headers',
    );
    log.info(
      { request: { headers: { authorization: 'Bearer SECRET-bearer', 'x-goog-api-key': 'SECRET-gemini-key' } } },
      'nested headers',
    );
    log.info({ socket: { accessToken: 'SECRET-token' }, accessToken: 'SECRET-token' }, 'socket');
    log.info({ options: engine.upstream.options, clientSecret: 'SECRET-client-secret' }, 'options');
    const out = text();
    for (const s of SECRETS) expect(out, s).not.toContain(s);
    // What is not secret stays readable.
    expect(out).toContain('"id":"exit-1"');
    expect(out).toContain('"clientId":"id"');
    expect(out).toContain('[redacted]');
  });
});
