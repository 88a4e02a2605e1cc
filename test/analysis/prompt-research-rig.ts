import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent } from 'undici';
import { afterAll, beforeAll } from 'vitest';
import type { PromptResearchInput } from '../../src/analysis/prompt-research/types.js';
import type { EngineConfig } from '../../src/config/engine-config.js';
import type { TaskPayload } from '../../src/domain/task.js';
import type { AttemptContext } from '../../src/engines/adapter.js';
import { inlineParse } from '../../src/engines/parse-pool/pool.js';
import { createLogger } from '../../src/ops/logger.js';
import { startSimulator, type Simulator } from '../../src/sandbox/server.js';
import { UndiciTransport } from '../../src/transport/undici-transport.js';
import { waitTerminal, type RunningService } from '../helpers/service.js';
import { submitAnalysis } from './analysis-service.js';

/**
 * What the PROMPT_RESEARCH tests build the same way: a payload, an attempt of the adapter against a given
 * upstream over a real transport, the sandbox simulator for a describe block, a loopback upstream stand-in,
 * and a run through the service.
 */

/** A payload as the API stores it: nothing excluded, no brand, three monitored prompts for one engine. */
export function researchInput(seed: string, country: 'KR' | 'US', limit = 5): PromptResearchInput {
  return {
    seed,
    country,
    limit,
    exclude: [],
    monitorSize: 3,
    engines: ['CHATBOT_A'],
    brand: null,
    brandAliases: [],
    brandDescription: null,
  };
}

/** One attempt of the adapter: anonymous, a single try, against `upstream` through `agent`. */
export function researchAttempt(
  agent: Agent,
  payload: PromptResearchInput,
  upstream: EngineConfig['upstream'],
): AttemptContext {
  return {
    taskId: 't',
    tenant: 'default',
    taskType: 'PROMPT_RESEARCH',
    payload: payload as unknown as TaskPayload,
    country: payload.country,
    config: {
      mode: 'anon',
      concurrency: 2,
      timeoutMs: 30_000,
      maxAttempts: 1,
      credits: 3,
      neverServe: [],
      paused: false,
      upstream,
    },
    http: new UndiciTransport('test', agent, false),
    account: null,
    signal: new AbortController().signal,
    parse: inlineParse(),
    log: createLogger('silent'),
    attempt: 1,
  };
}

export interface SimulatorRig {
  /** Set once the describe block's tests run. */
  readonly sim: Simulator;
  readonly agent: Agent;
}

/** The sandbox simulator and an undici Agent for the enclosing describe block, both closed after it. */
export function useSimulator(): SimulatorRig {
  const agent = new Agent();
  let sim: Simulator | undefined;
  beforeAll(async () => {
    sim = await startSimulator();
  });
  afterAll(async () => {
    await sim?.close();
    await agent.close();
  });
  return {
    agent,
    get sim(): Simulator {
      if (!sim) throw new Error('the simulator starts in beforeAll');
      return sim;
    },
  };
}

export interface Loopback {
  /** `http://127.0.0.1:<port>` */
  base: string;
  close(): Promise<void>;
}

/** A stand-in upstream on 127.0.0.1 answering with `handler`. */
export async function startLoopback(handler: http.RequestListener): Promise<Loopback> {
  const server = http.createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** Submits a prompt research to the service and waits until it ends. */
export async function runPromptResearch(svc: RunningService, body: Record<string, unknown>): Promise<any> {
  return waitTerminal(svc, await submitAnalysis(svc, '/v1/prompt-research', body), 30_000);
}
