import { escapeHtml } from '../text/html-escape.js';
import type { EngineConfig } from '../config/engine-config.js';
import type { AccountKind } from '../config/account-kind.js';
import type { ArtifactKind } from '../domain/artifact.js';
import { engineRow, isAnalysisTaskType } from '../domain/engine-catalog.js';
import type { TaskPayload } from '../domain/task.js';
import type { TaskType } from '../domain/task-types.js';
import { redactSecrets } from '../engines/chat/secret-redaction.js';
import type { EngineResult } from '../engines/engine-result.js';
import type { CaptureRequest } from '../transport/browser/browser-transport.js';
import type { AttemptBrowser } from '../transport/browser/browser-pool.js';

/** One artefact's bytes as an attempt made them, before they are stored. */
export interface EvidenceItem {
  kind: ArtifactKind;
  bytes: Uint8Array;
}

/**
 * Height cap of a screenshot in CSS pixels (with the 1366-pixel-wide window, a PNG of a text page stays in the low
 * megabytes): a page that scrolls further is cut there.
 */
const SCREENSHOT_MAX_HEIGHT = 8000;

/** Header names whose values are credentials: their values are secrets wherever they could reappear. */
const CREDENTIAL_HEADER = /authorization|cookie|token|secret|session|api[-_]?key|^x-.*key$/i;

/** Whether the task keeps its artefacts: it asked (a monitor's tasks always ask), and its engine honours the flag. */
export function keepsArtifacts(taskType: TaskType, payload: TaskPayload): boolean {
  if (payload.include?.artifacts !== true || isAnalysisTaskType(taskType)) return false;
  return engineRow(taskType).includeFlags.includes('artifacts');
}

/**
 * Every value that must not be in an artefact, by value: the engine's provider key, the leased account's secret (a
 * chat session token), the exit address's proxy URL and password, and the values of credential headers the operator
 * configured for the upstream (with a `Bearer` prefix also without it).
 */
export function evidenceSecrets(
  engine: EngineConfig,
  accountSecret: string | undefined,
  proxySecrets: readonly string[],
): string[] {
  const out = new Set<string>();
  const add = (v: string | undefined) => {
    if (typeof v === 'string' && v.length > 0) out.add(v);
  };
  add(engine.upstream.apiKey);
  add(accountSecret);
  for (const p of proxySecrets) add(p);
  for (const [name, value] of Object.entries(engine.upstream.headers)) {
    if (!CREDENTIAL_HEADER.test(name)) continue;
    add(value);
    add(/^bearer\s(.*)$/i.exec(value.trim())?.[1]?.trim());
    for (const pair of value.split(';')) add(pair.split('=').slice(1).join('=').trim());
  }
  return [...out];
}

/**
 * Whether the attempt's page is a pool account's own: loaded in an app session it leased, or by an engine in `account`
 * mode. Such a page is never captured as it is (identity, tokens, other tenants' chats).
 */
export function isPooledPage(engine: EngineConfig, leased: AccountKind | null): boolean {
  return leased === 'app' || engine.mode === 'account';
}

/**
 * What the browser of an attempt that keeps its artefacts captures. A pool account's page (`isPooledPage`) is never
 * captured: its picture could not be scrubbed; its artefacts are drawn from the answer the parser scrubbed instead
 * (`collectEvidence`).
 */
export function captureFor(pooledPage: boolean, secrets: readonly string[]): CaptureRequest | undefined {
  if (pooledPage) return undefined;
  return { maxHeight: SCREENSHOT_MAX_HEIGHT, secrets };
}

/**
 * The artefacts of a completed attempt, every text passed through the same redaction as `rawResponse`:
 * - `raw`: the engine's `raw` (the upstream payload it read, with its diagnostics), as JSON;
 * - `html` and `screenshot` when the engine read its page in the browser: the page as captured from the very page the
 *   engine read; for a pool account's page (CHATBOT_A's web mode), the answer turn the parser kept and scrubbed
 *   (`raw.turnHtml`) as a page of its own, and a picture of that page drawn offline, so neither shows the account.
 */
export async function collectEvidence(
  result: EngineResult,
  browser: AttemptBrowser | null,
  secrets: readonly string[],
  pooledPage: boolean,
): Promise<EvidenceItem[]> {
  const items: EvidenceItem[] = [];
  const raw = redactSecrets(result.raw ?? null, secrets);
  items.push({ kind: 'raw', bytes: utf8(JSON.stringify(raw) ?? 'null') });
  if (!browser) return items;
  if (pooledPage) {
    // Read from the app's stream there is no turn markup: the answer as the service rendered it stands in.
    const turn = turnHtmlOf(raw) ?? (result.markdown ? escapedAnswer(result.markdown) : null);
    if (turn === null) return items;
    const page = redactSecrets(answerPage(turn), secrets);
    items.push({ kind: 'html', bytes: utf8(page) });
    const picture = await browser.snapshot(page, SCREENSHOT_MAX_HEIGHT);
    if (picture) items.push({ kind: 'screenshot', bytes: picture });
    return items;
  }
  const captured = browser.captured;
  if (!captured) return items;
  items.push({ kind: 'html', bytes: utf8(redactSecrets(captured.html, secrets)) });
  if (captured.screenshot) items.push({ kind: 'screenshot', bytes: captured.screenshot });
  return items;
}

/** The answer's Markdown as a page body: its text escaped, its lines kept (nothing of the account's page). */
function escapedAnswer(markdown: string): string {
  return `<pre style="white-space:pre-wrap;font:inherit">${escapeHtml(markdown)}</pre>`;
}

function turnHtmlOf(raw: unknown): string | null {
  if (!raw || typeof raw !== 'object') return null;
  const turn = (raw as Record<string, unknown>).turnHtml;
  return typeof turn === 'string' && turn.length > 0 ? turn : null;
}

/** The scrubbed answer turn as a page of its own: nothing of the account's page around it. */
function answerPage(turnHtml: string): string {
  return (
    '<!doctype html><html><head><meta charset="utf-8"><title>Answer</title>' +
    '<style>body{font:16px/1.5 system-ui,sans-serif;max-width:48rem;margin:2rem auto;padding:0 1rem}</style>' +
    `</head><body>${turnHtml}</body></html>`
  );
}

function utf8(s: string): Uint8Array {
  return new TextEncoder().encode(s);
}
