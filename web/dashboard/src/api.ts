import { AeqClient } from '../../../packages/client/src/client.js';
import { AeqError } from '../../../packages/client/src/errors.js';

/** The typed client (packages/client) against the service that served this page, with the signed-in key. */
export function clientFor(apiKey: string): AeqClient {
  return new AeqClient({ baseUrl: location.origin, apiKey, fetch: (input, init) => fetch(input, init) });
}

/** A sentence for a person from whatever a call threw. */
export function describeError(e: unknown): string {
  if (e instanceof AeqError) {
    if (e.code === 'NETWORK_ERROR') return 'The service did not answer. Is it running?';
    return `${e.message} (${e.code}${e.status ? `, HTTP ${e.status}` : ''})`;
  }
  return e instanceof Error ? e.message : String(e);
}

/** True when the key was refused (revoked, expired, wrong): the dashboard then asks for a key again. */
export function isKeyRefused(e: unknown): boolean {
  return e instanceof AeqError && e.status === 401;
}
