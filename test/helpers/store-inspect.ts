import type { Kysely, Selectable } from 'kysely';
import type { Database, WebhookAttemptsTable, WebhookDeliveriesTable } from '../../src/store/schema.js';
import type { RunningService } from './service.js';

/** The in-process store's Kysely handle, to look at rows the API does not show (webhook outbox, attempts). */
function dbOf(svc: RunningService): Kysely<Database> {
  return svc.app.store.db;
}

export async function deliveryRow(
  svc: RunningService,
  taskId: string,
): Promise<Selectable<WebhookDeliveriesTable> | undefined> {
  return dbOf(svc).selectFrom('webhook_deliveries').selectAll().where('task_id', '=', taskId).executeTakeFirst();
}

export async function deliveryAttempts(
  svc: RunningService,
  taskId: string,
): Promise<Selectable<WebhookAttemptsTable>[]> {
  return dbOf(svc)
    .selectFrom('webhook_attempts')
    .selectAll()
    .where('task_id', '=', taskId)
    .orderBy('attempt')
    .execute();
}
