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

  it("censors credentials at any depth, in arrays, errors and child bindings; the caller's objects unchanged", () => {
    const { log, text } = capture();
    const deep = { a: { b: { c: { apiKey: 'SECRET-api-key', keep: 'visible-1' } } } };
    log.info({ deep, list: [{ password: 'SECRET-account' }, 'visible-2'] }, 'deep');
    const err = Object.assign(new Error('upstream said no'), {
      headers: { Authorization: 'Bearer SECRET-bearer', 'Proxy-Authorization': 'Basic SECRET-proxy-auth' },
    });
    log.error({ err }, 'with an error');
    const child = log.child({ exit: { proxyUrl: 'http://u:SECRET-proxy-pw@p:1' }, taskId: 'task-visible' });
    child.info({ socket: { accessToken: 'SECRET-token' } }, 'child line');
    // A grandchild keeps its parent's bindings and has its own scrubbed.
    child.child({ account: { secret: 'SECRET-account' }, step: 'grandchild-visible' }).info('grandchild line');
    const cyclic: Record<string, unknown> = { name: 'cyclic-visible', secret: 'SECRET-client-secret' };
    cyclic.self = cyclic;
    log.info({ cyclic }, 'cycle');
    const out = text();
    for (const s of SECRETS) expect(out, s).not.toContain(s);
    for (const v of ['visible-1', 'visible-2', 'task-visible', 'cyclic-visible', 'upstream said no'])
      expect(out).toContain(v);
    const grandchild = JSON.parse(out.split('\n').find((l) => l.includes('grandchild line')) ?? '{}') as Record<
      string,
      unknown
    >;
    expect(grandchild.taskId).toBe('task-visible');
    expect(grandchild.step).toBe('grandchild-visible');
    // The error is still serialised as an error (type, message and stack), not as a bare object.
    const errLine = JSON.parse(out.split('\n').find((l) => l.includes('with an error')) ?? '{}') as {
      err?: { type?: string; message?: string; stack?: string; headers?: Record<string, string> };
    };
    expect(errLine.err?.type).toBe('Error');
    expect(errLine.err?.stack).toContain('upstream said no');
    expect(errLine.err?.headers?.Authorization).toBe('[redacted]');
    // The objects the caller logged are left as they were.
    expect(deep.a.b.c.apiKey).toBe('SECRET-api-key');
    expect(err.headers.Authorization).toBe('Bearer SECRET-bearer');
  });

  it('fails closed: past its bounds, in interpolated values, in strings, and when an object throws while read', () => {
    const { log, text } = capture();
    // Behind a large list, a secret is not printed unread.
    log.info({ exits: new Array(2_500).fill(0), exit: { proxyUrl: 'http://u:SECRET-proxy-pw@p:1' } }, 'big');
    // Deeper than the walk goes: truncated, not printed.
    log.info(
      { a: { b: { c: { d: { e: { f: { g: { h: { i: { j: { apiKey: 'SECRET-api-key' } } } } } } } } } } },
      'deep',
    );
    // Interpolated objects and strings.
    log.info('request %o to %s', { headers: { authorization: 'Bearer SECRET-bearer' } }, 'https://u:SECRET-token@h/x');
    log.info({ url: 'http://user:SECRET-proxy-auth@proxy.example:8080/path' }, 'a URL with its credentials');
    // An error whose message and aggregated errors carry credentials.
    const inner = Object.assign(new Error('inner'), { token: 'SECRET-token' });
    log.error({ err: new AggregateError([inner], 'dial https://u:SECRET-proxy-pw@proxy:1 failed') }, 'aggregate');
    // Names beyond the old list.
    log.info(
      {
        headers: { 'set-cookie': 'SECRET-account', 'x-api-key': 'SECRET-gemini-key' },
        secrets: ['SECRET-client-secret'],
      },
      'names',
    );
    // An object that throws while read: the call does not throw, and nothing of it is printed.
    const hostile = {
      get boom(): string {
        throw new Error('getter');
      },
      apiKey: 'SECRET-api-key',
    };
    expect(() => log.info({ hostile }, 'hostile')).not.toThrow();
    // A child with its own log formatter, and setBindings, are scrubbed too.
    const child = log.child({ taskId: 't-1' }, { formatters: { log: (o: object) => o } });
    child.info({ password: 'SECRET-account' }, 'child with a formatter');
    child.setBindings({ account: { secret: 'SECRET-account' } });
    child.info('after setBindings');
    const out = text();
    for (const s of SECRETS) expect(out, s).not.toContain(s);
    expect(out).toContain('[Truncated]');
    expect(out).toContain('"logScrubFailed":true');
    expect(out).toContain('http://[redacted]@proxy.example:8080/path');
    expect(out).toContain('"type":"AggregateError"');
  });
});
