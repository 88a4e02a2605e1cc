import type { Logger } from 'pino';
import type { AccountConfig, ExitAddressConfig, ServiceConfig } from '../config/engine-config.js';
import type { TaskType } from '../domain/task-types.js';
import type { Store } from '../store/store.js';
import type { Pools } from './pools.js';
import { open, seal } from './secret-box.js';

/** The merged state of one pool resource changed at run time. */
interface ResourceState {
  kind: 'account' | 'exit';
  /** Present for a resource added at run time (config resources are known to every process). */
  spec?: AccountConfig | ExitAddressConfig;
  /** The spec's secret fields (`secret`, `proxyUrl`), sealed: they never reach the store in clear. */
  sealed?: string;
  disabled: boolean;
  removed: boolean;
}

const SECRET_FIELDS = ['secret', 'proxyUrl'] as const;

interface EngineState {
  paused: boolean;
}

type Kind = 'account' | 'exit';

/**
 * Operator changes (internal routes) written to the store and applied by every process: the API
 * process that receives a change applies it at once, the others on their next sync (every
 * `intervalMs`), and a restarted process replays them. Applying is idempotent, so a sync simply
 * re-reads the whole (small) table.
 *
 * Accounts and exit addresses added at run time are kept in the store with their secret fields
 * sealed under a key derived from the internal token (`secret-box.ts`); a process without the same
 * token cannot use them and says so in its log. No route ever returns them.
 */
export class RuntimeChanges {
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly store: Store,
    private readonly pools: Pools,
    private readonly config: ServiceConfig,
    private readonly log: Logger,
    private readonly now: () => number,
    /** Called when an engine is resumed, so a worker claims its queue at once. */
    private readonly onResume: (t: TaskType) => void = () => undefined,
    /** The internal token: seals and opens secrets of resources added at run time. */
    private readonly secretKey: string | undefined = undefined,
  ) {}

  start(intervalMs: number): void {
    this.timer = setInterval(() => void this.sync(), intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  async sync(): Promise<void> {
    try {
      for (const row of await this.store.runtimeChanges()) {
        const state = JSON.parse(row.state) as ResourceState | EngineState;
        const usable = 'kind' in state ? this.unsealed(row.key, state) : state;
        if (usable) this.apply(row.key, usable);
      }
    } catch (e) {
      this.log.warn({ err: e }, 'runtime changes could not be read');
    }
  }

  async addAccount(a: AccountConfig): Promise<void> {
    await this.put(`account:${a.id}`, { kind: 'account', spec: a, disabled: false, removed: false });
  }

  async addExit(x: ExitAddressConfig): Promise<void> {
    await this.put(`exit:${x.id}`, { kind: 'exit', spec: x, disabled: false, removed: false });
  }

  async remove(kind: Kind, id: string): Promise<void> {
    await this.put(`${kind}:${id}`, { ...(await this.current(kind, id)), removed: true });
  }

  async setDisabled(kind: Kind, id: string, disabled: boolean): Promise<void> {
    await this.put(`${kind}:${id}`, { ...(await this.current(kind, id)), disabled });
  }

  async setPaused(engine: TaskType, paused: boolean): Promise<void> {
    await this.put(`engine:${engine}`, { paused });
  }

  /** The stored state of a resource, so a change keeps what earlier changes said (its spec). */
  private async current(kind: Kind, id: string): Promise<ResourceState> {
    const row = (await this.store.runtimeChanges()).find((r) => r.key === `${kind}:${id}`);
    const base: ResourceState = { kind, disabled: false, removed: false };
    if (!row) return base;
    const s = JSON.parse(row.state) as ResourceState;
    return { ...base, ...(this.unsealed(row.key, s) ?? s) };
  }

  private async put(key: string, state: ResourceState | EngineState): Promise<void> {
    await this.store.putRuntimeChange(key, JSON.stringify(this.sealed(state)), this.now());
    this.apply(key, state);
  }

  /** The state as stored: secret fields of a spec moved into a sealed box. */
  private sealed(state: ResourceState | EngineState): ResourceState | EngineState {
    if (!('spec' in state) || !state.spec) return state;
    const secrets: Record<string, string> = {};
    const spec: Record<string, unknown> = { ...state.spec };
    for (const f of SECRET_FIELDS) {
      if (typeof spec[f] === 'string') secrets[f] = spec[f] as string;
      delete spec[f];
    }
    if (Object.keys(secrets).length === 0) return state;
    if (!this.secretKey)
      throw new Error('resources with secrets can be added at run time only with AEQ_INTERNAL_TOKEN set');
    return {
      ...state,
      spec: spec as unknown as ResourceState['spec'],
      sealed: seal(JSON.stringify(secrets), this.secretKey),
    };
  }

  /** The state with its secrets back, or null when this process cannot open them. */
  private unsealed(key: string, state: ResourceState): ResourceState | null {
    if (!state.sealed || !state.spec) return state;
    const opened = this.secretKey ? open(state.sealed, this.secretKey) : null;
    if (opened === null) {
      this.log.warn(
        { resource: key },
        'a resource added at run time cannot be used here: AEQ_INTERNAL_TOKEN differs from the process that added it',
      );
      return null;
    }
    const secrets = JSON.parse(opened) as Record<string, string>;
    return { ...state, spec: { ...state.spec, ...secrets } as ResourceState['spec'] };
  }

  private apply(key: string, state: ResourceState | EngineState): void {
    const sep = key.indexOf(':');
    const scope = key.slice(0, sep);
    const id = key.slice(sep + 1);
    if (scope === 'engine') {
      const engine = this.config.engines[id as TaskType];
      if (!engine) return;
      const paused = (state as EngineState).paused;
      if (engine.paused && !paused) {
        engine.paused = false;
        this.onResume(id as TaskType);
      } else engine.paused = paused;
      return;
    }
    const r = state as ResourceState;
    const pool = r.kind === 'account' ? this.pools.accounts : this.pools.exits;
    if (r.removed) {
      pool.remove(id);
      return;
    }
    if (r.spec && !pool.get(id)) {
      if (r.kind === 'account') this.pools.addAccount(r.spec as AccountConfig);
      else this.pools.addExit(r.spec as ExitAddressConfig);
    }
    if (pool.get(id)?.disabled !== r.disabled) pool.setDisabled(id, r.disabled);
  }
}
