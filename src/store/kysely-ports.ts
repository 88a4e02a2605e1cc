import type { Kysely } from 'kysely';
import * as accounts from './accounts.js';
import * as batches from './batches.js';
import * as monitors from './monitors.js';
import type { Accounts, Batches, Monitors, RuntimeState, WebhookSecrets } from './ports.js';
import * as runtime from './runtime-state.js';
import type { Database } from './schema.js';
import * as secrets from './webhook-secrets.js';
import type { Store } from './store.js';

/*
 * The ports with one form on both databases (the shared Kysely form): neither store has a form of its own for them,
 * so both wirings (sqlite/sqlite-store.ts, postgres/postgres-store.ts) take these.
 */

export function accountsOn(db: Kysely<Database>): Accounts {
  return {
    create: (a) => accounts.createAccount(db, a),
    byName: (name) => accounts.accountByName(db, name),
    list: () => accounts.listAccounts(db),
    insertKey: (k) => accounts.insertKey(db, k),
    listKeys: (accountId) => accounts.listKeys(db, accountId),
    revokeKey: (a) => accounts.revokeKey(db, a),
    keyByHash: (hash) => accounts.keyByHash(db, hash),
    touchKey: (a) => accounts.touchKey(db, a),
    keysVersion: () => accounts.keysVersion(db),
  };
}

export function webhookSecretsOn(db: Kysely<Database>): WebhookSecrets {
  return {
    of: (accountIds) => secrets.webhookSecrets(db, accountIds),
    create: (a) => secrets.createWebhookSecret(db, a),
    rotate: (a) => secrets.rotateWebhookSecret(db, a),
  };
}

export function monitorsOn(db: Kysely<Database>): Monitors {
  return {
    insert: (m) => monitors.insertMonitor(db, m),
    get: (a) => monitors.getMonitor(db, a),
    list: (a) => monitors.listMonitors(db, a),
    update: (m) => monitors.updateMonitor(db, m),
    delete: (a) => monitors.deleteMonitor(db, a),
    due: (a) => monitors.dueMonitors(db, a),
    claimSlot: (a) => monitors.claimMonitorSlot(db, a),
    startRun: (run) => monitors.startMonitorRun(db, run),
    runsIn: (a) => monitors.runsIn(db, a),
    runsToFinish: (a) => monitors.runsToFinish(db, a),
    runMetrics: (a) => monitors.runMetrics(db, a),
    advanceRun: (a) => monitors.advanceRun(db, a),
    runs: (a) => monitors.monitorRuns(db, a),
    runTasks: (a) => monitors.runTasks(db, a),
    deleteOldRuns: (a) => monitors.deleteOldRuns(db, a),
  };
}

export function runtimeOn(db: Kysely<Database>): RuntimeState {
  return {
    putChange: (a) => runtime.putRuntimeChange(db, a),
    changes: () => runtime.runtimeChanges(db),
    getMeta: (key) => runtime.getMeta(db, key),
    setMetaIfAbsent: (a) => runtime.setMetaIfAbsent(db, a),
  };
}

export function batchesOn(db: Kysely<Database>, kind: Store['kind']): Batches {
  return {
    get: (a) => batches.getBatch(db, a),
    list: (a) => batches.listBatches(db, a),
    items: (a) => batches.batchItems(db, a),
    complete: (a) => batches.completeBatches(db, a, kind),
    deleteExpired: (a) => batches.deleteExpiredBatches(db, a),
  };
}
