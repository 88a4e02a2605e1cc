import type { PageMetadata } from '../../engines/common/page-extract.js';
import type { Language } from '../text/norm.js';

/** The request as the analysis reads it, the fetcher's output, and pieces of the result (result-types.ts). */

/**
 * 2.0.0: the four-label judge with the contradiction rule, `claims[]`, citations as one signal (uncited support,
 * `miscited`), the GEO paper's eq. 3 and subjective proxies, `simulated`, `summary.judge`; 1.1.0: calibrated τ and
 * lexical weights (§5), `uncitedMin`, the model steps, metered credits, no `fetch.durationMs`.
 */
export const SI_METHOD_VERSION = 'source-influence/2.2.0';

export type FetchStatus =
  | 'ok'
  | 'http_error'
  | 'timeout'
  | 'blocked'
  | 'unsupported_content_type'
  | 'too_large'
  | 'invalid_url'
  | 'ssrf_refused'
  | 'network_error'
  | 'empty_content'
  | 'duplicate'
  | 'not_fetched';

type TextSource = 'extracted' | 'body_fallback' | 'snippet' | 'title' | 'none';

/** What the page reader keeps for §2.11.3 (defined beside the extractor, which runs in the parse pool). */
export type { PageMetadata };

/** A cited page as the analysis fetched and read it, or why it could not. */
export interface CitedPage {
  status: FetchStatus;
  httpStatus: number | null;
  contentType: string | null;
  bytes: number;
  finalUrl: string;
  text: string | null;
  textSource: 'extracted' | 'body_fallback' | null;
  truncated: boolean;
  /** Readable text under the language's minimum (§2.4): kept as the source's text, flagged. Absent = false. */
  short?: boolean;
  metadata: PageMetadata | null;
  /** Fetch time (ms since epoch): upper bound for dates found on the page. */
  fetchedAt: number;
  /** Short reason for logs and warnings (never contains secrets). */
  detail: string | null;
}

export interface FetchRecord {
  page: CitedPage;
  attempted: boolean;
  fromCache: boolean;
  retries: number;
  durationMs: number;
}

export interface CitationIn {
  url: string;
  title?: string;
  snippet?: string;
  position?: number;
  label?: string;
}

export interface Entity {
  id: string;
  name: string;
  role: string;
}

export interface SourceInfluenceInput {
  answer: string;
  prompt: string | null;
  citations: CitationIn[];
  analysis: { version: 1; entities: Entity[] } | null;
}

export interface Warning {
  code: string;
  message: string;
  sourceId?: string;
}

export interface SourceFetchUsage {
  attempted: number;
  succeeded: number;
  failed: number;
  retries: number;
  cacheHits: number;
  bytes: number;
}

export interface TextInfo {
  source: TextSource;
  chars: number;
  passages: number;
  truncated: boolean;
  language: Language;
}
