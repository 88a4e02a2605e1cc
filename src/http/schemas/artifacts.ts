import { ARTIFACT_KINDS, ARTIFACT_KIND_ORDER } from '../../domain/artifact.js';
import { taskMetadataSchema } from './tasks.js';

/** GET /v1/async/task/{id}/artifacts and …/artifacts/{name} (docs/contract.md#artifacts). */
const ARTIFACT_NAMES = ARTIFACT_KIND_ORDER.map((k) => ARTIFACT_KINDS[k].name);

const artifactSchema = {
  type: 'object',
  required: ['name', 'kind', 'contentType', 'bytes', 'sha256', 'createdAt', 'url'],
  properties: {
    name: { type: 'string', enum: ARTIFACT_NAMES, description: 'fixed per kind; the last segment of `url`' },
    kind: {
      type: 'string',
      enum: [...ARTIFACT_KIND_ORDER],
      description:
        '`raw`: the upstream payload the engine read (JSON, secrets removed); `html`: the page as the browser ' +
        'read it; `screenshot`: the page as shown (PNG)',
    },
    contentType: { type: 'string' },
    bytes: { type: 'integer', description: 'size in bytes' },
    sha256: { type: 'string', pattern: '^[0-9a-f]{64}$', description: 'hex SHA-256 of the bytes (the ETag)' },
    createdAt: { type: 'string', format: 'date-time' },
    url: { type: 'string', description: 'where to download it (same bearer key); range requests are honoured' },
  },
} as const;

export const artifactListSchema = {
  type: 'object',
  properties: {
    success: { type: 'boolean' },
    task: taskMetadataSchema,
    artifacts: {
      type: 'array',
      items: artifactSchema,
      description: 'empty when the task kept none (not asked, not finished yet, or failed)',
    },
  },
} as const;

export const artifactParamsSchema = {
  type: 'object',
  properties: { id: { type: 'string', maxLength: 200 }, name: { type: 'string', maxLength: 200 } },
} as const;

const bytesSchema = { type: 'string', format: 'binary' } as const;

/** The bytes of one artefact, in its own content type (one per kind); 206 with a single `Range`. */
export const artifactBytesSchema = {
  description: 'the artefact, with Content-Type, Content-Length, ETag and Accept-Ranges: bytes',
  content: Object.fromEntries(
    ARTIFACT_KIND_ORDER.map((k) => [ARTIFACT_KINDS[k].contentType.split(';')[0], { schema: bytesSchema }]),
  ),
} as const;
