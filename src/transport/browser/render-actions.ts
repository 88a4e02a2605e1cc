import type { Page } from 'playwright-core';
import { playwright } from './playwright.js';
import { UpstreamFailure } from '../../domain/engine-errors.js';
import type { RenderAction } from './browser-transport.js';
import { navigationFailure } from './navigation-failure.js';

const DEFAULT_ACTION_TIMEOUT_MS = 10_000;

/**
 * Runs the interaction steps of a render in order with Playwright's locator API (which waits for
 * the element to be attached, visible and enabled). An element that never becomes actionable
 * means the page no longer looks as the adapter expects: LAYOUT_CHANGED, naming the selector only
 * (never the typed text, which is the client's prompt).
 */
export async function runActions(
  page: Page,
  actions: readonly RenderAction[],
  timeoutOf: () => number,
  signal: AbortSignal,
): Promise<void> {
  for (const [i, action] of actions.entries()) {
    const timeout = timeoutOf();
    try {
      if ('fill' in action) await page.locator(action.fill).first().fill(action.text, { timeout });
      else if ('click' in action) await page.locator(action.click).first().click({ timeout });
      else if (action.on !== undefined) await page.locator(action.on).first().press(action.press, { timeout });
      else await page.keyboard.press(action.press);
    } catch (e) {
      if (!signal.aborted && e instanceof playwright().errors.TimeoutError) {
        throw new UpstreamFailure(
          'LAYOUT_CHANGED',
          `browser action ${i + 1} (${describe(action)}): element never became actionable`,
        );
      }
      throw navigationFailure(e, signal, `action ${i + 1}`);
    }
  }
}

/** Budget of one action: its own cap, never beyond what is left of the render. */
export function actionTimeout(remainingMs: number, capMs: number | undefined): number {
  return Math.max(1, Math.min(remainingMs, capMs ?? DEFAULT_ACTION_TIMEOUT_MS));
}

function describe(a: RenderAction): string {
  if ('fill' in a) return `fill ${a.fill}`;
  if ('click' in a) return `click ${a.click}`;
  return a.on !== undefined ? `press ${a.press} on ${a.on}` : `press ${a.press}`;
}
