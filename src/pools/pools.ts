import type { AccountKind } from '../config/account-kind.js';
import type { AccountConfig, ExitAddressConfig, ServiceConfig } from '../config/engine-config.js';
import type { TaskType } from '../domain/task-types.js';
import { ResourcePool } from './resource-pool.js';

export interface AccountValue {
  engine: TaskType;
  /** An API key or an app session: an attempt leases only the kind its surface uses. */
  kind: AccountKind;
  secret: string;
}

/** Region serveability of one engine and country, as /capacity and the region check report it. */
export interface RegionCapacity {
  serveable: boolean;
  accounts: number;
  hasIps: boolean;
}

/** The exit-address pool (per country) and the account pool (per engine and country). */
export class Pools {
  readonly exits: ResourcePool<ExitAddressConfig>;
  readonly accounts: ResourcePool<AccountValue>;

  constructor(config: ServiceConfig, now: () => number = Date.now) {
    this.exits = new ResourcePool<ExitAddressConfig>(config.scheduler.exitCooldownMs, now);
    this.accounts = new ResourcePool<AccountValue>(config.scheduler.exitCooldownMs, now);
    for (const x of config.exitAddresses) this.addExit(x);
    for (const a of config.accounts) this.addAccount(a);
  }

  addExit(x: ExitAddressConfig): void {
    this.exits.add(x.id, x.country, x.maxConcurrent, x);
  }

  addAccount(a: AccountConfig): void {
    // An account serves one conversation at a time.
    this.accounts.add(a.id, a.country, 1, { engine: a.engine, kind: a.kind, secret: a.secret });
  }

  /** True when an exit address or an account already uses `id` (ids are unique across both pools). */
  hasId(id: string): boolean {
    return this.exits.get(id) !== undefined || this.accounts.get(id) !== undefined;
  }

  hasIps(country: string): boolean {
    return this.exits.countFor(country) > 0;
  }

  /** Enabled accounts of the engine and kind in a country. */
  accountCount(engine: TaskType, country: string, kind: AccountKind): number {
    return this.accounts.countFor(country, (r) => r.value.engine === engine && r.value.kind === kind);
  }

  /** True when some enabled account of the engine and kind exists, in any country. */
  hasAccountOfKind(engine: TaskType, kind: AccountKind): boolean {
    return this.accounts.list().some((r) => !r.disabled && r.value.engine === engine && r.value.kind === kind);
  }

  /** `kind`: the kind of account the engine's attempts lease (account-kind.ts `leaseKind`), null for none. */
  regionCapacity(engine: TaskType, country: string, kind: AccountKind | null): RegionCapacity {
    const hasIps = this.hasIps(country);
    const accounts = kind ? this.accountCount(engine, country, kind) : 0;
    return { serveable: hasIps && (!kind || accounts > 0), accounts, hasIps };
  }

  /** Countries with at least one exit address or account, for /capacity. */
  knownCountries(): string[] {
    const s = new Set<string>();
    for (const r of this.exits.list()) if (!r.disabled) s.add(r.country);
    for (const r of this.accounts.list()) if (!r.disabled) s.add(r.country);
    return [...s].sort();
  }
}
