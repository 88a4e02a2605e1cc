/**
 * The log's secret scrub: any property whose name says it holds a credential is replaced by `[redacted]`, at any
 * depth, in whatever object a log line or a child logger's bindings carry.
 *
 * Why by name and not by path (pino's `redact`): the path redaction ran on every line, objects or not, and on every
 * child logger's bindings; at two lines and one child per task it was about 10 µs of the worker's 110 µs per task
 * (docs/benchmarks.md, "PostgreSQL dispatch"). A walk by name costs a few hundred nanoseconds for the small objects
 * log lines carry, and it is stricter: a secret two levels down, which no listed path named, is caught too.
 *
 * The walk is linear and bounded: each object is visited once (a cycle's back reference becomes `[Circular]`, as pino
 * prints it), at most MAX_DEPTH deep and at
 * most MAX_NODES values per line; past the bounds, values are left as they are (pino serialises them as before).
 * Nothing is copied unless something is scrubbed, and then only the objects on the path to it, so the caller's
 * objects are never changed.
 */

const CENSOR = '[redacted]';

/** Property names (lower-case) whose values are credentials: headers, provider keys, proxy URLs, secrets. */
const SECRET_KEYS = new Set([
  'authorization',
  'cookie',
  'x-goog-api-key',
  'proxy-authorization',
  'secret',
  'apikey',
  'password',
  'clientsecret',
  'proxyurl',
  'accesstoken',
]);

const MAX_DEPTH = 8;
const MAX_NODES = 2_000;

/** What a cycle's back reference becomes: what pino would print for it anyway (and the original may hold a secret). */
const CIRCULAR = '[Circular]';
const IN_PROGRESS = Symbol('in progress');

interface Walk {
  nodes: number;
  /** Each object walked, with what it became: a shared object is walked once; one still being walked is a cycle. */
  seen: Map<object, unknown>;
}

/** `obj` with every credential-named property censored; the same object when it holds none. */
export function scrubSecrets<T extends object>(obj: T): T {
  return scrub(obj, 0, { nodes: 0, seen: new Map() }) as T;
}

function scrub(value: unknown, depth: number, w: Walk): unknown {
  if (value === null || typeof value !== 'object') return value;
  const before = w.seen.get(value);
  if (before !== undefined) return before === IN_PROGRESS ? CIRCULAR : before;
  if (depth > MAX_DEPTH || w.nodes > MAX_NODES) return value;
  w.seen.set(value, IN_PROGRESS);
  const out = walk(value, depth, w);
  w.seen.set(value, out);
  return out;
}

function walk(value: object, depth: number, w: Walk): unknown {
  if (Array.isArray(value)) {
    let out: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      w.nodes++;
      const v: unknown = value[i];
      const s = scrub(v, depth + 1, w);
      if (s !== v) {
        out ??= value.slice();
        out[i] = s;
      }
    }
    return out ?? value;
  }
  // Buffers, dates, maps and the like are serialised by pino as they are: nothing of ours hides in them.
  if (ArrayBuffer.isView(value) || value instanceof Date || value instanceof Map || value instanceof Set) return value;
  let out: Record<string, unknown> | null = null;
  for (const key of Object.keys(value)) {
    w.nodes++;
    const v = (value as Record<string, unknown>)[key];
    const s = SECRET_KEYS.has(key.toLowerCase()) && v !== undefined && v !== null ? CENSOR : scrub(v, depth + 1, w);
    if (s !== v) {
      out ??= copyOf(value);
      out[key] = s;
    }
  }
  return out ?? value;
}

/**
 * A shallow copy that keeps what the serialisers look for: an error stays an error (same prototype, its message,
 * stack and cause, which are not enumerable), so pino's error serialiser still reads it.
 */
function copyOf(value: object): Record<string, unknown> {
  if (value instanceof Error) {
    const e = Object.create(Object.getPrototypeOf(value) as object) as Record<string, unknown>;
    for (const k of ['name', 'message', 'stack', 'cause'] as const)
      if (k in value)
        Object.defineProperty(e, k, {
          value: (value as unknown as Record<string, unknown>)[k],
          enumerable: false,
          writable: true,
          configurable: true,
        });
    return Object.assign(e, value);
  }
  return { ...(value as Record<string, unknown>) };
}
