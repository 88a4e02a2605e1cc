import type { Logger } from 'pino';
import { type AccountKind, inferredKind, kindMismatch } from '../config/account-kind.js';
import type { AccountConfig, ExitAddressConfig, ServiceConfig } from '../config/engine-config.js';
import type { TaskType } from '../domain/task-types.js';
import { RequestError } from '../domain/request-errors.js';
import type { RuntimeState } from '../store/ports.js';
import type { Pools } from './pools.js';
import { open, seal } from './secret-box.js';

/** The keys that seal and open the secrets of resources added at run time. */
export interface SealingKeys {
  /** The secrets key (AEQ_SECRETS_KEY, or the embedded store's generated one); null: nothing can be sealed. */
  key: string | null;
  /**
   * The internal token, which sealed these secrets before they had a key of their own: a box it opens is sealed again
   * under `key` at the next sync, and the token is never used to seal.
   */
  legacy?: string | undefined;
}

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

/** An account as stored by `addAccount`; one stored before accounts had kinds has none. */
type StoredAccount = Omit<AccountConfig, 'kind'> & { kind?: AccountKind };

/**
 * Operator changes (internal routes) written to the store and applied by every process: the API
 * process that receives a change applies it at once, the others on their next sync (every
 * `intervalMs`), and a restarted process replays them. Applying is idempotent, so a sync simply
 * re-reads the whole (small) table.
 *
 * Accounts and exit addresses added at run time are kept in the store with their secret fields
 * sealed under a key derived from the secrets key (`secret-box.ts`, `config/secrets-key.ts`); a process without the
 * same key cannot use them and says so in its log. No route ever returns them.
 */
export class RuntimeChanges {
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly runtime: RuntimeState,
    private readonly pools: Pools,
    private readonly config: ServiceConfig,
    private readonly log: Logger,
    private readonly now: () => number,
    /** Called when an engine is resumed, so a worker claims its queue at once. */
    private readonly onResume: (t: TaskType) => void = () => undefined,
    private readonly keys: SealingKeys = { key: null },
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
      for (const row of await this.runtime.changes()) {
        const state = JSON.parse(row.state) as ResourceState | EngineState;
        const usable = 'kind' in state ? this.unsealed(row.key, state) : state;
        if (!usable) continue;
        if ('kind' in state && this.sealedByLegacy(state)) await this.reseal(row.key, usable as ResourceState);
        this.apply(row.key, usable);
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
    const row = (await this.runtime.changes()).find((r) => r.key === `${kind}:${id}`);
    const base: ResourceState = { kind, disabled: false, removed: false };
    if (!row) return base;
    const s = JSON.parse(row.state) as ResourceState;
    return { ...base, ...(this.unsealed(row.key, s) ?? s) };
  }

  private async put(key: string, state: ResourceState | EngineState): Promise<void> {
    await this.runtime.putChange({ key, state: JSON.stringify(this.sealed(state)), now: this.now() });
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
    if (!this.keys.key)
      throw new RequestError(
        'SECRETS_KEY_MISSING',
        'Resources with a secret or a proxy URL can be added at run time only when every process has the same ' +
          'AEQ_SECRETS_KEY (required with DATABASE_URL).',
      );
    return {
      ...state,
      spec: spec as unknown as ResourceState['spec'],
      sealed: seal(JSON.stringify(secrets), this.keys.key),
    };
  }

  /** Whether a stored box opens only with the internal token (sealed before the secrets key existed). */
  private sealedByLegacy(state: ResourceState): boolean {
    if (!state.sealed || !this.keys.key || !this.keys.legacy) return false;
    return open(state.sealed, this.keys.key) === null && open(state.sealed, this.keys.legacy) !== null;
  }

  /** Stores a legacy box again under the secrets key; another process doing the same writes the same state. */
  private async reseal(key: string, state: ResourceState): Promise<void> {
    await this.runtime.putChange({ key, state: JSON.stringify(this.sealed(state)), now: this.now() });
    this.log.info({ resource: key }, 'a resource added at run time was sealed again under the secrets key');
  }

  /** The state with its secrets back, or null when this process cannot open them. */
  private unsealed(key: string, state: ResourceState): ResourceState | null {
    if (!state.sealed || !state.spec) return state;
    const { key: secretsKey, legacy } = this.keys;
    const opened = (secretsKey ? open(state.sealed, secretsKey) : null) ?? (legacy ? open(state.sealed, legacy) : null);
    if (opened === null) {
      this.log.warn(
        { resource: key },
        'a resource added at run time cannot be used here: AEQ_SECRETS_KEY differs from the process that added it',
      );
      return null;
    }
    const secrets = JSON.parse(opened) as Record<string, string>;
    return { ...state, spec: { ...state.spec, ...secrets } as ResourceState['spec'] };
  }

  /**
   * A stored account with its kind: an account stored before kinds existed has none and gets the one its engine's
   * configuration implies, as a configured one would (account-kind.ts); one whose secret cannot be of that kind is
   * left out, with a warning (never its secret).
   */
  private withKind(key: string, spec: StoredAccount): AccountConfig | null {
    const engine = this.config.engines[spec.engine];
    if (!engine) return null;
    const kind = spec.kind ?? inferredKind(spec.engine, engine);
    const wrong = kindMismatch(spec.engine, kind, spec.secret);
    if (wrong) {
      this.log.warn({ resource: key, why: wrong }, 'an account added at run time cannot be used: set its kind');
      return null;
    }
    return { ...spec, kind };
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
      if (r.kind === 'account') {
        const account = this.withKind(key, r.spec as StoredAccount);
        if (!account) return;
        this.pools.addAccount(account);
      } else this.pools.addExit(r.spec as ExitAddressConfig);
    }
    if (pool.get(id)?.disabled !== r.disabled) pool.setDisabled(id, r.disabled);
  }
}
