import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { resourceLimits, threadId } from 'node:worker_threads';
import { UpstreamFailure } from '../../../src/domain/engine-errors.js';

/**
 * A parse table for the pool's own tests, loaded by its workers instead of the service's
 * (`ParsePool({ parsersUrl })`). Slots of `spin`'s shared flag: 0 = started, 1 = the thread's id,
 * 2 = set by the test to let an inline spin end.
 */
export const PARSERS = {
  'test.echo': (i: { text: string; bytes: Uint8Array }) => ({
    text: i.text.toUpperCase(),
    length: i.bytes.byteLength,
    threadId,
  }),
  'test.threadId': (_: null) => threadId,
  /** The heap limits this thread runs under (V8's own, as the thread was created). */
  'test.resourceLimits': (_: null) => ({ ...resourceLimits }),
  /** This thread's nice value on Linux (the kernel keeps one per thread; /proc/thread-self names it). */
  'test.nice': (_: null) => os.getPriority(Number(path.basename(fs.readlinkSync('/proc/thread-self')))),
  'test.rateLimited': (_: null): never => {
    throw new UpstreamFailure('RATE_LIMITED', 'upstream said slow down', { retryAfterMs: 30_000 });
  },
  'test.unavailable': (_: null): never => {
    throw new UpstreamFailure('PAGE_UNAVAILABLE', 'post deleted', {
      clientMessage: 'The post was deleted; pass the URL of an existing post.',
    });
  },
  'test.bug': (i: { value: unknown }) => (i.value as { deref: { x: number } }).deref.x,
  /** A parse whose memory grows without end (the heap limit ends it). */
  'test.hog': (_: null) => {
    const kept: string[][] = [];
    for (;;) kept.push(Array.from({ length: 100_000 }, (_, i) => `row ${i} of ${kept.length}`));
  },
  'test.exit': (_: null) => process.exit(3),
  /** A parse that never ends by itself: it says it has started, then runs until its thread is terminated. */
  'test.spin': (flag: Int32Array) => {
    Atomics.store(flag, 1, threadId);
    Atomics.store(flag, 0, 1);
    Atomics.notify(flag, 0);
    let turns = 0;
    while (Atomics.load(flag, 2) === 0) turns++;
    return turns;
  },
};
