import pg from 'pg';
import type { Logger } from 'pino';
import { InProcessWakeBus, type WakeBus } from './wake-bus.js';

const CHANNEL = 'aeq_wake';

/** Wake-ups across processes through PostgreSQL's LISTEN/NOTIFY (see wake-bus.ts). */
export class PostgresWakeBus implements WakeBus {
  private readonly local = new InProcessWakeBus();
  private readonly pending = new Set<string>();
  private flushScheduled = false;
  private listener: pg.Client | null = null;
  private closed = false;
  private readonly publisher: pg.Pool;

  constructor(
    private readonly connectionString: string,
    private readonly log: Logger,
    listen: boolean,
  ) {
    this.publisher = new pg.Pool({ connectionString, max: 1 });
    this.publisher.on('error', () => undefined);
    if (listen) void this.connectListener(0);
  }

  publish(taskType: string): void {
    // Same-process subscribers are woken directly; the NOTIFY reaches the other processes.
    this.local.publish(taskType);
    this.pending.add(taskType);
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    // Coalesce a burst of submits (a batch of 500) into one NOTIFY per task type.
    setImmediate(() => {
      this.flushScheduled = false;
      const types = [...this.pending];
      this.pending.clear();
      for (const t of types) {
        this.publisher
          .query('select pg_notify($1, $2)', [CHANNEL, t])
          .catch((e: unknown) => this.log.warn({ err: e }, 'wake-up NOTIFY failed'));
      }
    });
  }

  subscribe(fn: (taskType: string) => void): void {
    this.local.subscribe(fn);
  }

  private async connectListener(attempt: number): Promise<void> {
    if (this.closed) return;
    const client = new pg.Client({ connectionString: this.connectionString });
    client.on('notification', (msg) => {
      if (msg.channel === CHANNEL && msg.payload) this.local.publish(msg.payload);
    });
    client.on('error', (e) => {
      this.log.warn({ err: e }, 'wake-up listener lost its connection; reconnecting');
      void client.end().catch(() => undefined);
      if (this.listener === client) this.listener = null;
      setTimeout(() => void this.connectListener(1), 500).unref();
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
      this.listener = client;
    } catch (e) {
      void client.end().catch(() => undefined);
      const wait = Math.min(5000, 200 * 2 ** attempt);
      this.log.warn({ err: e, retryInMs: wait }, 'wake-up listener could not connect');
      setTimeout(() => void this.connectListener(attempt + 1), wait).unref();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.local.close();
    await this.listener?.end().catch(() => undefined);
    await this.publisher.end().catch(() => undefined);
  }
}
