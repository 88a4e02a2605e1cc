import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { type Clock, systemClock } from '../domain/clock.js';
import { parseDirectives, stripDirectives, type Directives } from './directives.js';

/** Shared state and helpers of the simulated upstreams. */
export class SimContext {
  /** Requests seen per (route, text), for `sandbox:flaky=N`. */
  private readonly seen = new Map<string, number>();
  /** Asks seen per (engine, country, day, prompt), for the sample index of landscape/recommendations.ts. */
  private readonly asks = new Map<string, number>();

  /** The service's clock when the simulator runs in its process (a test's stepped clock moves the day too). */
  constructor(private readonly clock: Clock = systemClock) {}

  /** `YYYY-MM-DD` (UTC) of the clock. */
  today(): string {
    return new Date(this.clock.now()).toISOString().slice(0, 10);
  }

  /** 0 for the first ask of a key, then 1, 2, …; days' keys differ, so old ones are dropped at the day's turn. */
  sampleOf(key: string): number {
    const n = this.asks.get(key) ?? 0;
    if (n === 0 && this.asks.size > 100_000) this.asks.clear();
    this.asks.set(key, n + 1);
    return n;
  }

  /**
   * Applies the transport-level directives common to every upstream: delay, timeout (never answers)
   * and flaky/error (5xx). Returns the parsed directives, or null when the reply was already handled.
   * `captcha` and `empty` are left to the route, which answers them in its own wire format.
   */
  async gate(
    route: string,
    text: string,
    reply: FastifyReply,
    error5xx: (reply: FastifyReply) => FastifyReply,
  ): Promise<Directives | null> {
    const d = parseDirectives(text);
    if (d.delayMs > 0) await sleep(d.delayMs);
    if (d.timeout) {
      // Never answer: hold the socket until the client gives up.
      await new Promise<void>((resolve) => reply.raw.on('close', () => resolve()));
      return null;
    }
    if (d.error) {
      error5xx(reply);
      return null;
    }
    if (d.flaky > 0) {
      const key = `${route}\u0000${text}`;
      const n = (this.seen.get(key) ?? 0) + 1;
      this.seen.set(key, n);
      if (n <= d.flaky) {
        error5xx(reply);
        return null;
      }
    }
    return d;
  }

  /** Deterministic pseudo-random integer from a text (same prompt, same answer). */
  hash(text: string, salt = ''): number {
    return createHash('sha256').update(`${salt}\u0000${text}`).digest().readUInt32BE(0);
  }

  clean(text: string): string {
    return stripDirectives(text);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
