import type { Dispatcher } from 'undici';
import type { ExitAddressConfig } from '../config/engine-config.js';
import { ENGINE_CATALOG } from '../domain/engine-catalog.js';
import type { TaskType } from '../domain/task-types.js';
import type { HttpRequest, HttpResponse, HttpTransport } from './http-transport.js';
import { UndiciTransport, dispatcherFor, socketOpenerFor } from './undici-transport.js';

/**
 * Builds the HTTP transport of an attempt from the exit address it took. Dispatchers are cached per
 * exit address so keep-alive connections are reused across attempts.
 */
export class TransportFactory {
  private readonly dispatchers = new Map<string, Dispatcher>();

  constructor(private readonly opts: { allowPrivate: boolean; sandboxWebBase: string | null }) {}

  forExit(exit: ExitAddressConfig, taskType: TaskType): HttpTransport {
    const readsClientUrls = ENGINE_CATALOG[taskType].readsClientUrls;
    const guard = readsClientUrls && !this.opts.allowPrivate;
    const base = new UndiciTransport(exit.id, this.dispatcher(exit, guard), guard, socketOpenerFor(exit, guard));
    if (readsClientUrls && this.opts.sandboxWebBase) {
      // The simulator itself listens on loopback: only the client's own URL is subject to the guard.
      const simulator = guard ? new UndiciTransport(exit.id, this.dispatcher(exit, false), false) : base;
      return new SandboxWebTransport(base, simulator, this.opts.sandboxWebBase);
    }
    return base;
  }

  private dispatcher(exit: ExitAddressConfig, guard: boolean): Dispatcher {
    // The proxy URL is part of the key: an exit address removed and re-added under the same id
    // (internal routes) may point at another proxy, and must not reuse the old connections.
    const key = `${exit.id}|${exit.proxyUrl ?? 'direct'}|${guard ? 'guarded' : 'open'}`;
    let d = this.dispatchers.get(key);
    if (!d) {
      d = dispatcherFor(exit, guard);
      this.dispatchers.set(key, d);
    }
    return d;
  }

  async close(): Promise<void> {
    await Promise.all([...this.dispatchers.values()].map((d) => d.close().catch(() => undefined)));
    this.dispatchers.clear();
  }
}

/**
 * Sandbox routing for page readers (docs/contract.md#sandbox-scope): loopback URLs are fetched as asked, so
 * tests can serve real pages; any other URL is answered by the simulator's web route.
 */
class SandboxWebTransport implements HttpTransport {
  constructor(
    private readonly inner: HttpTransport,
    private readonly simulator: HttpTransport,
    private readonly webBase: string,
  ) {}

  get exitId(): string {
    return this.inner.exitId;
  }

  async request(req: HttpRequest): Promise<HttpResponse> {
    const u = new URL(req.url);
    // The simulator's other upstreams (the source-influence model) come from the config, not from
    // the client: they are reached unguarded, like any engine's upstream.
    if (u.origin === new URL(this.webBase).origin) return this.simulator.request(req);
    if (isLoopbackHost(u.hostname)) return this.inner.request(req);
    const routed = `${this.webBase}/${u.protocol.replace(':', '')}/${u.host}${u.pathname}${u.search}`;
    const res = await this.simulator.request({ ...req, url: routed });
    return { ...res, url: res.url.startsWith(this.webBase) ? req.url : res.url };
  }
}

function isLoopbackHost(h: string): boolean {
  return h === 'localhost' || h === '[::1]' || h === '::1' || /^127\./.test(h);
}
