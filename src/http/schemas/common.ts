/**
 * JSON schemas of the HTTP edge, one file per resource under src/http/schemas/. Fastify validates requests with
 * them and @fastify/swagger builds the OpenAPI document from the same objects, so the two cannot drift. This file
 * holds the pieces the others share.
 */
export const httpUrl = { type: 'string', minLength: 1, maxLength: 8192, pattern: '^[Hh][Tt][Tt][Pp][Ss]?://' } as const;

export const isoOrNull = { type: ['string', 'null'], format: 'date-time' } as const;

export const errorObjectSchema = {
  type: 'object',
  properties: {
    code: { type: 'string' },
    message: { type: 'string' },
    details: {},
    timestamp: { type: 'string', format: 'date-time' },
  },
} as const;

export const errorEnvelopeSchema = {
  type: 'object',
  properties: { success: { type: 'boolean', enum: [false] }, error: errorObjectSchema },
} as const;

export const idParamsSchema = {
  type: 'object',
  properties: { id: { type: 'string', maxLength: 200 } },
} as const;
