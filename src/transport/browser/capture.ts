import type { Page } from 'playwright-core';
import type { CaptureRequest, PageCapture, RenderedPage } from './browser-transport.js';

/** A screenshot or a snapshot's drawing gets this long; past it the artefact is left out, the answer is not failed. */
export const SNAPSHOT_TIMEOUT_MS = 10_000;

/**
 * The rendered page as the attempt's artefacts keep it: its HTML as the engine read it and a picture of it taken from
 * the same page, before its context is closed. A page whose HTML holds one of the request's secrets gets no picture:
 * text can be redacted in the HTML afterwards, pixels cannot.
 */
export async function capturePage(page: Page, rendered: RenderedPage, req: CaptureRequest): Promise<PageCapture> {
  const holdsSecret = req.secrets.some((s) => s.length > 0 && rendered.html.includes(s));
  let screenshot: Uint8Array | null = null;
  if (!holdsSecret) {
    try {
      screenshot = await screenshotOf(page, req.maxHeight);
    } catch {
      // A page that closed or will not draw keeps its HTML; the answer itself does not depend on the picture.
      screenshot = null;
    }
  }
  return { url: rendered.url, html: rendered.html, screenshot };
}

/**
 * The whole page as shown (not only the window), PNG, cut at `maxHeight` CSS pixels so that an endless page cannot
 * make an endless file. Animations are stopped at their end state so the picture is the settled page.
 */
export async function screenshotOf(page: Page, maxHeight: number): Promise<Uint8Array> {
  const viewport = page.viewportSize() ?? { width: 1366, height: 768 };
  const height = await page
    .evaluate<number>(
      '() => Math.max(document.documentElement ? document.documentElement.scrollHeight : 0, ' +
        'document.body ? document.body.scrollHeight : 0)',
    )
    // A page without scripts may refuse the measure: its own window's height then, at least.
    .catch(() => viewport.height);
  const clipHeight = Math.max(1, Math.min(maxHeight, Math.ceil(height) || viewport.height));
  const png = await page.screenshot({
    type: 'png',
    fullPage: true,
    clip: { x: 0, y: 0, width: viewport.width, height: clipHeight },
    animations: 'disabled',
    timeout: SNAPSHOT_TIMEOUT_MS,
  });
  return new Uint8Array(png.buffer, png.byteOffset, png.byteLength);
}
