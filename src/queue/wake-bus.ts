import { EventEmitter } from 'node:events';

/**
 * Wake-ups from submitters to workers, so a new task is claimed at once instead of at the next
 * poll. In one process an event emitter is enough; across processes PostgreSQL's LISTEN/NOTIFY
 * carries them (postgres-wake-bus.ts, loaded only with PostgreSQL). Polling stays as the safety
 * net: a lost wake-up only delays a claim by `pollMs`.
 */
export interface WakeBus {
  publish(taskType: string): void;
  subscribe(fn: (taskType: string) => void): void;
  close(): Promise<void>;
}

export class InProcessWakeBus implements WakeBus {
  private readonly emitter = new EventEmitter();

  publish(taskType: string): void {
    this.emitter.emit('wake', taskType);
  }

  subscribe(fn: (taskType: string) => void): void {
    this.emitter.on('wake', fn);
  }

  async close(): Promise<void> {
    this.emitter.removeAllListeners();
  }
}
