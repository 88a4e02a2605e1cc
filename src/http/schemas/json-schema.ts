/**
 * Small constructors for the JSON schemas of what the service answers (the analysis results): an object lists its
 * members in `required` unless named optional, so the schema says which members are always there.
 */
export const int = { type: 'integer' } as const;
export const num = { type: 'number' } as const;
export const str = { type: 'string' } as const;
export const bool = { type: 'boolean' } as const;
export const strings = { type: 'array', items: str } as const;
export const ints = { type: 'array', items: int } as const;

type Schema = Record<string, unknown>;

/** One of the given strings (and null, with `nullable`). */
export function enumOf(values: readonly string[], description?: string): Schema {
  return { type: 'string', enum: [...values], ...(description ? { description } : {}) };
}

/** The schema, or null: its `type` gains `null` (and its `enum`, if any, the null value). */
export function nullable(schema: Schema, description?: string): Schema {
  const type = schema.type;
  const out: Schema = { ...schema, type: [...(Array.isArray(type) ? type : [type]), 'null'] };
  if (Array.isArray(schema.enum)) out.enum = [...schema.enum, null];
  if (description) out.description = description;
  return out;
}

export function list(items: Schema, description?: string): Schema {
  return { type: 'array', items, ...(description ? { description } : {}) };
}

/** An object whose members are all present but the `optional` ones. */
export function object(
  properties: Record<string, Schema>,
  opts: { description?: string; optional?: readonly string[] } = {},
): Schema {
  const optional = new Set(opts.optional ?? []);
  return {
    type: 'object',
    ...(opts.description ? { description: opts.description } : {}),
    required: Object.keys(properties).filter((k) => !optional.has(k)),
    properties,
  };
}

/** A member described: the schema with a `description`. */
export function described(schema: Schema, description: string): Schema {
  return { ...schema, description };
}
