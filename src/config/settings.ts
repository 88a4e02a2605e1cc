import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The one place that reads the environment. Values are validated at start-up and frozen;
 * everything else receives a Settings object.
 */
export interface Settings {
  port: number;
  host: string;
  /** AEQ_DATA_DIR; default `./data`, or `./data/sandbox` in the sandbox (a dir serves one mode: data-dir-mode.ts). */
  dataDir: string;
  apiKey: string | undefined;
  internalToken: string | undefined;
  /** Seals secrets kept in the store (AEQ_SECRETS_KEY); unset: generated in the data dir for the embedded store. */
  secretsKey: string | undefined;
  databaseUrl: string | undefined;
  /** Connections per process to PostgreSQL. */
  pgPoolMax: number;
  /** Page cache of the embedded store, in MiB (part of the process's resident memory). */
  sqliteCacheMb: number;
  role: 'all' | 'api' | 'worker';
  configPath: string | undefined;
  sandbox: boolean;
  /** An already running simulator (`aeq sandbox`) to use instead of starting one in-process. */
  sandboxUrl: string | undefined;
  /** Port of `aeq sandbox` (the standalone simulator). */
  sandboxPort: number;
  engineTimeoutMs: number | undefined;
  engineMaxAttempts: number | undefined;
  webhookRetryBaseMs: number;
  webhookTimeoutMs: number;
  /** Webhook targets may be loopback, private or link-local addresses (AEQ_WEBHOOK_ALLOW_PRIVATE); webhooks only. */
  webhookAllowPrivate: boolean;
  /**
   * Page readers (WEB_SCRAPE, the source-influence citation fetches) may read loopback, private or link-local
   * addresses (AEQ_READER_ALLOW_PRIVATE). Separate from the webhook switch: each lifts only its own guard, since a
   * page reader returns what it read to the client.
   */
  readerAllowPrivate: boolean;
  /**
   * Standard Webhooks signing secrets (AEQ_WEBHOOK_SECRET, comma-separated `whsec_<base64>`, several during a
   * rotation); empty = unsigned deliveries. Secrets: never logged.
   */
  webhookSecrets: readonly string[];
  retentionMs: number;
  /**
   * Where task artefacts are kept (AEQ_ARTIFACT_DIR; default `<data dir>/artifacts`). On PostgreSQL with processes on
   * several hosts, a directory every one of them mounts (docs/operations.md#artefacts).
   */
  artifactDir: string;
  /** How long monitor runs keep their saved answers and figures (AEQ_MONITOR_RETENTION_DAYS, default 400 days). */
  monitorRetentionMs: number;
  /**
   * How far apart a monitor's samples of one prompt are asked (AEQ_MONITOR_SAMPLE_SPACING_SECONDS, 0–3600, default
   * 300): sample k is due k spacings after the run starts, so samples do not share one minute and one exit address.
   */
  monitorSampleSpacingMs: number;
  directCountry: string;
  logLevel: string;
  /** Chromium for engines with `transport: "browser"` (Debian's `chromium` package). */
  chromiumPath: string;
  /**
   * AEQ_CHROMIUM_SANDBOX: `auto` (default) runs Chromium sandboxed where the kernel allows it, `on` refuses to run it
   * otherwise, `off` never sandboxes it (docs/security.md#browser-isolation).
   */
  chromiumSandbox: 'auto' | 'on' | 'off';
  /** Browser pages open at once per worker process. */
  browserPages: number;
  /**
   * Worker threads that parse upstream pages, per worker process (default: one per core); 0 parses on the event
   * loop.
   */
  parseThreads: number;
  /** Old-generation heap limit of each parse thread, in MB; 0 leaves V8's default. */
  parseHeapMb: number;
  /** The parse threads' nice value on Linux (0 to 19, default 19: the lowest priority). */
  parseNice: number;
  /** The built dashboard served at /dashboard (`npm run build` writes it to dist/dashboard). */
  dashboardDir: string;
}

/** Where `npm run build` puts the dashboard: dist/dashboard of the package (this file is src/config or dist/config). */
const BUILT_DASHBOARD = fileURLToPath(new URL('../../dist/dashboard', import.meta.url));

export class SettingsError extends Error {
  override name = 'SettingsError';
}

type Env = Readonly<Record<string, string | undefined>>;

function int(env: Env, name: string, min: number, max: number): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  if (!/^-?\d+$/.test(raw.trim())) throw new SettingsError(`${name} must be an integer, got ${JSON.stringify(raw)}`);
  const n = Number(raw);
  if (n < min || n > max) throw new SettingsError(`${name} must be between ${min} and ${max}, got ${n}`);
  return n;
}

/**
 * A parse thread's heap bound. Unbounded, V8 lets a busy thread's heap grow far past what one page
 * needs before it collects (about 0.5 GB per thread at 1 MB pages); 320 MB holds the largest
 * ordinary page with room (docs/benchmarks.md, Parse isolation).
 */
const DEFAULT_PARSE_HEAP_MB = 320;

function parseHeapMb(env: Env): number {
  const mb = int(env, 'AEQ_PARSE_HEAP_MB', 0, 65_536) ?? DEFAULT_PARSE_HEAP_MB;
  if (mb !== 0 && mb < 64)
    throw new SettingsError(`AEQ_PARSE_HEAP_MB must be 0 (V8's default) or at least 64, got ${mb}`);
  return mb;
}

/** `whsec_` and the base64 of at least 16 key bytes (Standard Webhooks secrets are 24 to 64 bytes). */
const WEBHOOK_SECRET = /^whsec_[A-Za-z0-9+/]+={0,2}$/;

function webhookSecrets(env: Env): string[] {
  const raw = env.AEQ_WEBHOOK_SECRET ?? '';
  const parts = raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  for (const [i, p] of parts.entries()) {
    // The message names the position, never the value: a secret must not reach a log.
    if (!WEBHOOK_SECRET.test(p) || Buffer.from(p.slice(6), 'base64').length < 16)
      throw new SettingsError(
        `AEQ_WEBHOOK_SECRET: secret ${i + 1} is not whsec_ followed by the base64 of at least 16 bytes`,
      );
  }
  return parts;
}

/**
 * Configured credentials shorter than this are refused at start-up: a key people type or reuse ("k", "secret",
 * "changeme") is guessed long before any rate limit matters. 16 characters of a random generator is at least 95 bits;
 * the docs ask for 32 random bytes.
 */
const MIN_CREDENTIAL_LENGTH = 16;
/** The sealing key stands behind every stored secret: twice the length. */
const MIN_SECRETS_KEY_LENGTH = 32;

function credential(env: Env, name: string, min = MIN_CREDENTIAL_LENGTH): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  // The message names the variable and the rule, never the value: a secret must not reach a log.
  if (raw.length < min)
    throw new SettingsError(
      `${name} is too short (${raw.length} characters): use at least ${min}, e.g. the output of ` +
        '`openssl rand -base64 32`',
    );
  if (/\s/.test(raw)) throw new SettingsError(`${name} must not contain whitespace`);
  return raw;
}

function chromiumSandbox(env: Env): 'auto' | 'on' | 'off' {
  const raw = (env.AEQ_CHROMIUM_SANDBOX ?? 'auto').trim().toLowerCase() || 'auto';
  if (raw === 'auto' || raw === 'on' || raw === 'off') return raw;
  throw new SettingsError(
    `AEQ_CHROMIUM_SANDBOX must be auto, on or off, got ${JSON.stringify(env.AEQ_CHROMIUM_SANDBOX)}`,
  );
}

function flag(env: Env, name: string): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '' || raw === '0' || raw.toLowerCase() === 'false') return false;
  if (raw === '1' || raw.toLowerCase() === 'true') return true;
  throw new SettingsError(`${name} must be 1 or 0, got ${JSON.stringify(raw)}`);
}

export function loadSettings(env: Env = process.env, overrides: Partial<Settings> = {}): Readonly<Settings> {
  const role = env.AEQ_ROLE ?? 'all';
  if (role !== 'all' && role !== 'api' && role !== 'worker') {
    throw new SettingsError(`AEQ_ROLE must be all, api or worker, got ${JSON.stringify(role)}`);
  }
  const directCountry = (env.AEQ_DIRECT_COUNTRY ?? 'US').toUpperCase();
  if (!/^[A-Z]{2}$/.test(directCountry))
    throw new SettingsError('AEQ_DIRECT_COUNTRY must be a two-letter country code');
  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new SettingsError('DATABASE_URL must start with postgres:// (unset it for the embedded SQLite store)');
  }
  const apiKey = credential(env, 'AEQ_API_KEY');
  const internalToken = credential(env, 'AEQ_INTERNAL_TOKEN');
  // One value for both would give every holder of the client key the operator's routes.
  if (apiKey !== undefined && apiKey === internalToken)
    throw new SettingsError('AEQ_INTERNAL_TOKEN must differ from AEQ_API_KEY');
  // The sealing key is its own so that no holder of a credential can open what the store keeps.
  const secretsKey = credential(env, 'AEQ_SECRETS_KEY', MIN_SECRETS_KEY_LENGTH);
  if (secretsKey !== undefined && (secretsKey === apiKey || secretsKey === internalToken))
    throw new SettingsError('AEQ_SECRETS_KEY must differ from AEQ_API_KEY and AEQ_INTERNAL_TOKEN');
  const dataDir = path.resolve(env.AEQ_DATA_DIR || (flag(env, 'AEQ_SANDBOX') ? './data/sandbox' : './data'));
  const settings: Settings = {
    port: int(env, 'PORT', 0, 65535) ?? 8080,
    host: env.HOST || '127.0.0.1',
    // The sandbox keeps its own store: a live start on it would send the sandbox's queued tasks to the real hosts.
    dataDir,
    apiKey,
    internalToken,
    secretsKey,
    databaseUrl,
    pgPoolMax: int(env, 'AEQ_PG_POOL_MAX', 1, 1000) ?? 10,
    sqliteCacheMb: int(env, 'AEQ_SQLITE_CACHE_MB', 2, 65_536) ?? 64,
    role,
    configPath: env.AEQ_CONFIG || undefined,
    sandbox: flag(env, 'AEQ_SANDBOX'),
    sandboxPort: int(env, 'AEQ_SANDBOX_PORT', 0, 65535) ?? 8090,
    sandboxUrl: env.AEQ_SANDBOX_URL ? env.AEQ_SANDBOX_URL.replace(/\/+$/, '') : undefined,
    engineTimeoutMs: int(env, 'AEQ_ENGINE_TIMEOUT_MS', 1, 3_600_000),
    engineMaxAttempts: int(env, 'AEQ_ENGINE_MAX_ATTEMPTS', 1, 20),
    webhookRetryBaseMs: int(env, 'AEQ_WEBHOOK_RETRY_BASE_MS', 1, 86_400_000) ?? 120_000,
    webhookTimeoutMs: int(env, 'AEQ_WEBHOOK_TIMEOUT_MS', 1, 600_000) ?? 30_000,
    webhookAllowPrivate: flag(env, 'AEQ_WEBHOOK_ALLOW_PRIVATE'),
    readerAllowPrivate: flag(env, 'AEQ_READER_ALLOW_PRIVATE'),
    webhookSecrets: webhookSecrets(env),
    retentionMs: int(env, 'AEQ_RETENTION_MS', 1, 365 * 86_400_000) ?? 86_400_000,
    artifactDir: path.resolve(env.AEQ_ARTIFACT_DIR || path.join(dataDir, 'artifacts')),
    monitorRetentionMs: (int(env, 'AEQ_MONITOR_RETENTION_DAYS', 1, 3650) ?? 400) * 86_400_000,
    monitorSampleSpacingMs: (int(env, 'AEQ_MONITOR_SAMPLE_SPACING_SECONDS', 0, 3600) ?? 300) * 1000,
    directCountry,
    logLevel: env.AEQ_LOG_LEVEL || 'info',
    chromiumPath: env.AEQ_CHROMIUM_PATH || '/usr/bin/chromium',
    chromiumSandbox: chromiumSandbox(env),
    browserPages: int(env, 'AEQ_BROWSER_PAGES', 1, 64) ?? 4,
    parseThreads: int(env, 'AEQ_PARSE_THREADS', 0, 256) ?? os.availableParallelism(),
    parseHeapMb: parseHeapMb(env),
    parseNice: int(env, 'AEQ_PARSE_NICE', 0, 19) ?? 19,
    dashboardDir: env.AEQ_DASHBOARD_DIR ? path.resolve(env.AEQ_DASHBOARD_DIR) : BUILT_DASHBOARD,
    ...overrides,
  };
  return Object.freeze(settings);
}
