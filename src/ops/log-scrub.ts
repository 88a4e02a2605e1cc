/**
 * The log's secret scrub: any property whose name says it holds a credential is replaced by `[redacted]`, at any
 * depth, in every object a log call passes (the line's object and any interpolated one) and in a child logger's
 * bindings; and a URL's user and password are censored in any string.
 *
 * Why by name and not by path (pino's `redact`): the path redaction ran on every line, objects or not, and on every
 * child logger's bindings; at two lines and one child per task it was about 10 µs of the worker's 110 µs per task
 * (docs/benchmarks.md, "PostgreSQL dispatch"). A walk by name costs a few hundred nanoseconds for the small objects
 * log lines carry, and it is stricter: a secret two levels down, which no listed path named, is caught too.
 *
 * The walk is linear and bounded, and fails closed: each object is visited once (a cycle's back reference becomes
 * `[Circular]`, as pino prints it); past MAX_DEPTH levels or MAX_NODES values a value becomes `[Truncated]` rather
 * than being printed unread; an object that throws while read (a getter, a revoked proxy) makes the whole value
 * `{ logScrubFailed: true }`. Nothing is copied unless something is censored, and then only the objects on the path
 * to it, so the caller's objects are never changed. An object with a `toJSON` is scrubbed as what it prints.
 */

const CENSOR = '[redacted]';
const TRUNCATED = '[Truncated]';

/** Property names (lower-case) whose values are credentials: headers, provider keys, proxy URLs, tokens, secrets. */
const SECRET_KEYS = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'cookies',
  'set-cookie',
  'x-goog-api-key',
  'x-api-key',
  'api_key',
  'apikey',
  'secret',
  'secrets',
  'secretkey',
  'secretskey',
  'clientsecret',
  'sessionsecret',
  'previoussecret',
  'sealingkey',
  'internaltoken',
  'password',
  'proxyurl',
  'accesstoken',
  'token',
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

/** `value` with every credential-named property and every URL's credentials censored; itself when it holds none. */
export function scrubSecrets<T>(value: T): T {
  try {
    return scrub(value, 0, { nodes: 0, seen: new Map() }) as T;
  } catch {
    return { logScrubFailed: true } as T;
  }
}

/**
 * A string with the user and password of each URL in it censored (`https://[redacted]@host`): one scan for `://`,
 * then up to the first `@` before a `/` or a space.
 */
function scrubUrlCredentials(s: string): string {
  if (!s.includes('://') || !s.includes('@')) return s;
  let out = '';
  let from = 0;
  for (let at = s.indexOf('://', from); at >= 0; at = s.indexOf('://', from)) {
    const start = at + 3;
    let end = start;
    while (end < s.length && s[end] !== '@' && s[end] !== '/' && s[end] !== ' ' && s[end] !== '\n') end++;
    if (end < s.length && s[end] === '@' && end > start) {
      out += `${s.slice(from, start)}${CENSOR}`;
      from = end;
    } else {
      out += s.slice(from, end);
      from = end;
    }
  }
  return out + s.slice(from);
}

function scrub(value: unknown, depth: number, w: Walk): unknown {
  if (typeof value === 'string') return scrubUrlCredentials(value);
  if (value === null || typeof value !== 'object') return value;
  const before = w.seen.get(value);
  if (before !== undefined) return before === IN_PROGRESS ? CIRCULAR : before;
  if (depth > MAX_DEPTH || w.nodes > MAX_NODES) return TRUNCATED;
  w.seen.set(value, IN_PROGRESS);
  const out = walk(value, depth, w);
  w.seen.set(value, out);
  return out;
}

function walk(value: object, depth: number, w: Walk): unknown {
  if (Array.isArray(value)) {
    let out: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      if (++w.nodes > MAX_NODES) {
        // The rest is not read: the array ends with the mark (a sparse array of length 4e9 costs nothing).
        out = [...(out ?? value).slice(0, i), TRUNCATED];
        break;
      }
      const v: unknown = value[i];
      const s = scrub(v, depth + 1, w);
      if (s !== v) {
        out ??= value.slice();
        out[i] = s;
      }
    }
    return out ?? value;
  }
  // Buffers, dates, maps and the like print without keys of their own: nothing of ours hides in them.
  if (ArrayBuffer.isView(value) || value instanceof Date || value instanceof Map || value instanceof Set) return value;
  // What pino prints for an object with toJSON (a URL, a class with a view of its own) is that: scrub that.
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === 'function' && !(value instanceof Error)) {
    const shown: unknown = toJSON.call(value);
    const s = scrub(shown, depth, w);
    return s === shown ? value : s;
  }
  let out: Record<string, unknown> | null = null;
  if (value instanceof Error) out = scrubErrorOwn(value, depth, w);
  for (const key of Object.keys(value)) {
    if (++w.nodes > MAX_NODES) {
      out ??= copyOf(value);
      out[key] = TRUNCATED;
      continue;
    }
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
 * An error's own text that no key walk reads (message, stack and an aggregate's errors are not enumerable): a copy
 * with them scrubbed when any held a credential, else null.
 */
function scrubErrorOwn(e: Error, depth: number, w: Walk): Record<string, unknown> | null {
  const own = e as unknown as Record<string, unknown>;
  let out: Record<string, unknown> | null = null;
  for (const k of ['message', 'stack', 'errors', 'cause']) {
    if (!Object.hasOwn(e, k) || Object.getOwnPropertyDescriptor(e, k)?.enumerable) continue;
    const v = own[k];
    const s = scrub(v, depth + 1, w);
    if (s !== v) {
      out ??= copyOf(e);
      Object.defineProperty(out, k, { value: s, enumerable: false, writable: true, configurable: true });
    }
  }
  return out;
}

/**
 * A shallow copy that keeps what the serialisers look for: an error stays an error (same prototype, and every own
 * property, enumerable or not, defined rather than set, so no setter of its prototype runs), so pino's error
 * serialiser still reads it, an aggregate's `errors` included.
 */
function copyOf(value: object): Record<string, unknown> {
  if (value instanceof Error) {
    const e = Object.create(Object.getPrototypeOf(value) as object) as Record<string, unknown>;
    for (const k of Object.getOwnPropertyNames(value)) {
      const d = Object.getOwnPropertyDescriptor(value, k);
      if (d) Object.defineProperty(e, k, { ...d, configurable: true, ...('value' in d ? { writable: true } : {}) });
    }
    return e;
  }
  return { ...(value as Record<string, unknown>) };
}
