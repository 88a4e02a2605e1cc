import type { UpstreamConfig } from '../../config/engine-config.js';
import { trimEndChars } from '../text/norm.js';

/**
 * Which of prompt research's upstreams are the sandbox simulator, decided from configuration only
 * (never from what an answer says). With `AEQ_SANDBOX=1` the start-up points each upstream at the
 * simulator's mount for it (`src/sandbox/upstream-map.ts`): `<sandbox>/google-suggest`,
 * `<sandbox>/naver-ac`, `<sandbox>/naver-searchad`. A real vendor host is never configured with those
 * paths, so a base URL whose path ends in one of them is the simulator. The analysis layer may not
 * import the sandbox, so the three mounts are repeated here; test/analysis/prompt-research-honesty
 * checks them against the running simulator.
 */
export type Upstream = 'google' | 'naver' | 'searchad';

export const SIMULATOR_MOUNTS: Readonly<Record<Upstream, string>> = Object.freeze({
  google: '/google-suggest',
  naver: '/naver-ac',
  searchad: '/naver-searchad',
});

/** Names in the result: the vendor's for a real upstream, `sandbox_…` for the simulator. */
const NAMES: Readonly<Record<Upstream, { real: string; simulated: string }>> = Object.freeze({
  google: { real: 'google_autocomplete', simulated: 'sandbox_google_autocomplete' },
  naver: { real: 'naver_autocomplete', simulated: 'sandbox_naver_autocomplete' },
  searchad: { real: 'naver_searchad', simulated: 'sandbox_searchad' },
});

export function isSimulatorUrl(baseUrl: string, upstream: Upstream): boolean {
  let path: string;
  try {
    path = trimEndChars(new URL(baseUrl).pathname, '/');
  } catch {
    return false;
  }
  return path.endsWith(SIMULATOR_MOUNTS[upstream]);
}

export interface UpstreamBases {
  google: string;
  naver: string;
  searchad: string;
}

/** The configured base URL of each upstream, with the production defaults. */
export function upstreamBases(upstream: Readonly<UpstreamConfig>): UpstreamBases {
  return {
    google: upstream.baseUrl,
    naver: String(upstream.options.naverBaseUrl ?? 'https://ac.search.naver.com'),
    searchad: String(upstream.options.searchadBaseUrl ?? 'https://api.searchad.naver.com'),
  };
}

export type SimulatedSet = Readonly<Record<Upstream, boolean>>;

export function simulatedUpstreams(bases: UpstreamBases): SimulatedSet {
  return {
    google: isSimulatorUrl(bases.google, 'google'),
    naver: isSimulatorUrl(bases.naver, 'naver'),
    searchad: isSimulatorUrl(bases.searchad, 'searchad'),
  };
}

export function upstreamName(upstream: Upstream, simulated: SimulatedSet): string {
  return simulated[upstream] ? NAMES[upstream].simulated : NAMES[upstream].real;
}
