import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { TEST_KEY, startIdleService, tempDir, type RunningService } from '../helpers/service.js';

/** `aeq webhooks secret [--rotate]` as an operator runs it against a service. */
describe('aeq webhooks secret', () => {
  let svc: RunningService;
  let env: Record<string, string>;
  const cwd = tempDir('aeq-cli-');
  beforeAll(async () => {
    svc = await startIdleService();
    env = { AEQ_URL: svc.url, AEQ_API_KEY: TEST_KEY };
  });
  afterAll(() => svc.stop());

  it("shows the account's secret, and --rotate makes a new one while the old one still signs", async () => {
    const shown = await runCli(['webhooks', 'secret', '--json'], { cwd, env });
    expect(shown.code).toBe(0);
    const first = JSON.parse(shown.stdout) as { secret: string; previous: unknown };
    expect(first.secret).toMatch(/^whsec_/);
    expect(first.previous).toBeNull();
    // The same secret as the API shows the account's keys.
    expect((await svc.call('GET', '/v1/webhooks/secret')).body.secret).toBe(first.secret);

    const rotated = await runCli(['webhooks', 'secret', '--rotate'], { cwd, env });
    expect(rotated.code).toBe(0);
    const now = (await svc.call('GET', '/v1/webhooks/secret')).body;
    expect(now.secret).not.toBe(first.secret);
    expect(rotated.stdout).toMatch(new RegExp(`^secret\\s+${now.secret.replace(/[+/]/g, '\\$&')}$`, 'm'));
    expect(rotated.stdout).toMatch(/^previous\s+whsec_/m);
    expect(rotated.stdout).toContain(first.secret);

    const refused = await runCli(['webhooks', 'secret'], { cwd, env: { ...env, AEQ_API_KEY: 'not-a-key-0123456789' } });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/MISSING_API_KEY \(HTTP 401\)/);
  });
});
