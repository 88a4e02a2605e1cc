export {
  AeqClient,
  BATCH_MAX_BYTES,
  BATCH_MAX_ITEMS,
  type ClientOptions,
  type TasksQuery,
  type WaitOptions,
  type WaitProgress,
} from './client.js';
export { AeqError } from './errors.js';
export type * from './types.js';
export { verifyWebhook } from './webhooks.js';
