import type { Migration } from 'kysely';
import * as m001 from '../migrations/001-initial.js';
import * as m002 from '../migrations/002-pool-leases.js';
import * as m003 from '../migrations/003-runtime-changes.js';
import * as m004 from '../migrations/004-webhook-lease-index.js';
import * as m006 from './migrations/006-pool-lease-function.js';
import * as m007 from '../migrations/007-partial-task-indexes.js';
import * as m008 from './migrations/008-pool-slots.js';
import * as m009 from '../migrations/009-webhook-attempt-details.js';
import * as m010 from '../migrations/010-webhook-redelivery.js';
import * as m011 from '../migrations/011-batches.js';
import * as m012 from '../migrations/012-accounts-and-keys.js';
import * as m013 from '../migrations/013-account-isolation.js';
import * as m015 from '../migrations/015-usage-daily.js';
import * as m016 from './migrations/016-c-collation-ids.js';
import * as m017 from '../migrations/017-monitors.js';
import * as m018 from '../migrations/018-monitor-run-counts.js';
import * as m019 from '../migrations/019-worker-liveness.js';
import * as m020 from './migrations/020-worker-lock-keys.js';
import * as m021 from './migrations/021-claim-function.js';
import * as m022 from './migrations/022-pool-slots-batch.js';
import * as m023 from '../migrations/023-webhook-secrets.js';
import * as m024 from '../migrations/024-task-failure.js';
import * as m025 from '../migrations/025-monitor-run-trigger.js';
import * as m026 from '../migrations/026-drop-pool-leases.js';
import * as m027 from './migrations/027-drop-single-slot-function.js';
import * as m028 from '../migrations/028-task-artifacts.js';
import * as m029 from './migrations/029-lean-claim.js';
import * as m030 from './migrations/030-exit-lease-in-claim.js';
import * as m031 from './migrations/031-lean-task-indexes.js';
import * as m032 from './migrations/032-status-count-deltas.js';

/**
 * Every migration the PostgreSQL store runs, in order. A number names one change in both databases' lists; the
 * numbers missing here are the embedded store's own (sqlite/migration-list.ts).
 */
export const POSTGRES_MIGRATIONS: Readonly<Record<string, Migration>> = {
  '001-initial': m001,
  '002-pool-leases': m002,
  '003-runtime-changes': m003,
  '004-webhook-lease-index': m004,
  '006-pool-lease-function': m006,
  '007-partial-task-indexes': m007,
  '008-pool-slots': m008,
  '009-webhook-attempt-details': m009,
  '010-webhook-redelivery': m010,
  '011-batches': m011,
  '012-accounts-and-keys': m012,
  '013-account-isolation': m013,
  '015-usage-daily': m015,
  '016-c-collation-ids': m016,
  '017-monitors': m017,
  '018-monitor-run-counts': m018,
  '019-worker-liveness': m019,
  '020-worker-lock-keys': m020,
  '021-claim-function': m021,
  '022-pool-slots-batch': m022,
  '023-webhook-secrets': m023,
  '024-task-failure': m024,
  '025-monitor-run-trigger': m025,
  '026-drop-pool-leases': m026,
  '027-drop-single-slot-function': m027,
  '028-task-artifacts': m028,
  '029-lean-claim': m029,
  '030-exit-lease-in-claim': m030,
  '031-lean-task-indexes': m031,
  '032-status-count-deltas': m032,
};
