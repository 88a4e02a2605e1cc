/** A JSON value as `JSON.parse` returns it. */
export type Json = null | boolean | number | string | Json[] | JsonObject;
export interface JsonObject {
  [key: string]: Json;
}

export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Deepest pointer a patch may name: the apps' paths are a few levels deep; a longer one is not theirs. */
const MAX_DEPTH = 32;
/**
 * Member names a patch never walks or sets: through them a stream would reach the prototypes every later parse in
 * the process shares (`/__proto__/x` sets `Object.prototype.x`).
 */
const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * The work a stream's patches may cost, in elements moved and characters copied: an insert at the front of an array
 * moves the array, a cut of a long string copies it. Each reader gives its stream a budget of a few times its bytes,
 * so a hostile stream of front inserts or cuts ends as not understood instead of costing quadratic time.
 */
export interface PatchBudget {
  left: number;
}

/** The budget for a stream of `bytes`: the apps' own streams use a small fraction of it. */
export function patchBudget(bytes: number): PatchBudget {
  return { left: 16 * bytes + 1_000_000 };
}

/** A member name no stream may walk or set (`__proto__`, `constructor`, `prototype`). */
export function forbiddenKey(key: string): boolean {
  return FORBIDDEN_KEYS.has(key);
}

/**
 * Applies one patch operation of the apps' streams (docs/engines.md#app-streams) to `root` in place, the JSON-Pointer
 * path (RFC 6901) naming the member: `add` / `replace` set it (`add` inserts into an array, `-` appends), `append`
 * concatenates a string or pushes onto an array, `truncate` cuts a string or array to a length, `remove` deletes.
 * Missing intermediate objects are created, as the apps' clients do. Returns false for an operation it cannot place
 * (a path through a scalar, an unknown operation): the caller counts those, a stream full of them is not understood.
 *
 * Each operation costs the length of its path plus its value; appends rely on the engine's string concatenation,
 * which does not copy the accumulated text each time.
 */
export function applyPatch(
  root: JsonObject,
  path: string,
  op: string,
  value: Json | undefined,
  budget: PatchBudget,
): boolean {
  if (path === '') return false;
  if (!path.startsWith('/')) return false;
  const keys = path.slice(1).split('/');
  if (keys.length > MAX_DEPTH) return false;
  if (budget.left < 0) return false;
  let parent: JsonObject | Json[] = root;
  for (let i = 0; i < keys.length - 1; i++) {
    const key = unescapeKey(keys[i] as string);
    if (FORBIDDEN_KEYS.has(key)) return false;
    const next: Json | undefined = Array.isArray(parent)
      ? parent[indexOf(parent, key, false)]
      : Object.hasOwn(parent, key)
        ? parent[key]
        : undefined;
    if (next !== null && typeof next === 'object') {
      parent = next;
      continue;
    }
    if (next !== undefined && next !== null) return false;
    if (Array.isArray(parent)) return false;
    const created: JsonObject = {};
    parent[key] = created;
    parent = created;
  }
  const last = unescapeKey(keys[keys.length - 1] as string);
  if (FORBIDDEN_KEYS.has(last)) return false;
  return Array.isArray(parent)
    ? patchArray(parent, last, op, value, budget)
    : patchObject(parent, last, op, value, budget);
}

function patchObject(
  parent: JsonObject,
  key: string,
  op: string,
  value: Json | undefined,
  budget: PatchBudget,
): boolean {
  const cur = Object.hasOwn(parent, key) ? parent[key] : undefined;
  switch (op) {
    case 'add':
    case 'replace':
      if (value === undefined) return false;
      parent[key] = value;
      return true;
    case 'append':
      return appendTo(cur, value, (v) => {
        parent[key] = v;
      });
    case 'truncate':
      return truncate(cur, value, budget, (v) => {
        parent[key] = v;
      });
    case 'remove':
      delete parent[key];
      return true;
    default:
      return false;
  }
}

function patchArray(parent: Json[], key: string, op: string, value: Json | undefined, budget: PatchBudget): boolean {
  const i = indexOf(parent, key, op === 'add');
  if (i < 0) return false;
  switch (op) {
    case 'add':
      if (value === undefined) return false;
      // An insert moves every element after it.
      budget.left -= parent.length - i;
      parent.splice(i, 0, value);
      return true;
    case 'replace':
      if (value === undefined || i >= parent.length) return false;
      parent[i] = value;
      return true;
    case 'append':
      return appendTo(parent[i], value, (v) => {
        parent[i] = v;
      });
    case 'truncate':
      return truncate(parent[i], value, budget, (v) => {
        parent[i] = v;
      });
    case 'remove':
      if (i >= parent.length) return false;
      budget.left -= parent.length - i;
      parent.splice(i, 1);
      return true;
    default:
      return false;
  }
}

/** `append` onto nothing yet starts the value: the apps append the first text piece to a part that is not there. */
function appendTo(cur: Json | undefined, value: Json | undefined, set: (v: Json) => void): boolean {
  if (typeof value === 'string' && (typeof cur === 'string' || cur === undefined || cur === null)) {
    set((cur ?? '') + value);
    return true;
  }
  if (Array.isArray(cur) && value !== undefined) {
    if (Array.isArray(value)) for (const v of value) cur.push(v);
    else cur.push(value);
    return true;
  }
  if ((cur === undefined || cur === null) && Array.isArray(value)) {
    set([...value]);
    return true;
  }
  return false;
}

function truncate(
  cur: Json | undefined,
  value: Json | undefined,
  budget: PatchBudget,
  set: (v: Json) => void,
): boolean {
  if (typeof value !== 'number' || value < 0) return false;
  // A cut copies what it keeps (and flattens a string built by appends).
  if (typeof cur === 'string') {
    budget.left -= Math.min(cur.length, value);
    set(cur.slice(0, value));
  } else if (Array.isArray(cur)) cur.length = Math.min(cur.length, value);
  else return false;
  return true;
}

/** An array index: digits below the length (or equal to it, and `-`, when inserting); -1 otherwise. */
function indexOf(arr: readonly Json[], key: string, inserting: boolean): number {
  if (key === '-') return inserting ? arr.length : arr.length - 1;
  if (!/^(?:0|[1-9]\d{0,8})$/.test(key)) return -1;
  const i = Number(key);
  return i < arr.length || (inserting && i === arr.length) ? i : -1;
}

function unescapeKey(k: string): string {
  return k.includes('~') ? k.replace(/~1/g, '/').replace(/~0/g, '~') : k;
}
