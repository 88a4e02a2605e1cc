import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { chromiumLaunchOptions } from '../../src/transport/browser/launch-options.js';
import { buildDashboard } from '../../web/build.js';
import { CHROMIUM_PATH } from '../browser/chromium.js';
import { tempDir } from '../helpers/service.js';

/** Where the dashboard tests leave their screenshots (kept by CI as artifacts; two are copied into docs/img). */
export const ARTIFACTS = path.resolve('test-artifacts', 'dashboard');

/** The dashboard built from web/dashboard into a fresh folder, for a service started with AEQ_DASHBOARD_DIR. */
export async function builtDashboard(): Promise<string> {
  const dir = tempDir('aeq-dashboard-');
  await buildDashboard(dir);
  return dir;
}

export async function launchChromium(): Promise<Browser> {
  return chromium.launch(chromiumLaunchOptions(CHROMIUM_PATH));
}

/** Signs in as a person would, with the keyboard only: the key typed into the focused field, then Enter. */
export async function signIn(page: Page, baseUrl: string, key: string): Promise<void> {
  await page.goto(`${baseUrl}/dashboard`);
  await page.waitForSelector('#api-key');
  await page.keyboard.type(key);
  await page.keyboard.press('Enter');
  await page.waitForSelector('nav[aria-label="Sections"]');
}

export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const file = path.join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}
