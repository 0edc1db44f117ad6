import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { describe } from 'vitest';
import { ROOT } from './fixtures';

/**
 * A real headless browser for the exported session page: Debian's chromium, driven by
 * playwright-core (which brings no browser of its own). `.ci/run` installs it and sets
 * TENET_TEST_BROWSER=require, which turns a missing browser into a failure instead of a skip.
 */
export const CHROMIUM = process.env.TENET_CHROMIUM ?? '/usr/bin/chromium';

const BROWSER_PROBLEM = existsSync(CHROMIUM)
  ? undefined
  : `no browser at ${CHROMIUM}; install Debian's chromium (apt-get install chromium) or set TENET_CHROMIUM`;
if (BROWSER_PROBLEM && process.env.TENET_TEST_BROWSER === 'require')
  throw new Error(`Browser tests are required here (TENET_TEST_BROWSER=require) but ${BROWSER_PROBLEM}`);
if (BROWSER_PROBLEM) console.warn(`[tenet tests] browser tests skipped: ${BROWSER_PROBLEM}`);

export const describeBrowser = BROWSER_PROBLEM
  ? (name: string, fn: () => void) => describe.skip(`${name} [skipped: ${BROWSER_PROBLEM}]`, fn)
  : describe;

/** Screenshots the tests keep (git-ignored), to look at what the page showed. */
export const ARTIFACTS = join(ROOT, 'test', 'artifacts');

/** Headless chromium with a fresh profile, nothing in the background that would reach the network. */
export async function openBrowser(): Promise<{ context: BrowserContext; close: () => Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), 'tenet-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1400, height: 1000 },
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Every request the page makes, every script error and console error, and any dialog it opens. */
export function watch(page: Page): { requests: string[]; errors: string[]; dialogs: string[] } {
  const seen = { requests: [] as string[], errors: [] as string[], dialogs: [] as string[] };
  page.on('request', (request) => seen.requests.push(request.url()));
  page.on('pageerror', (error) => seen.errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') seen.errors.push(message.text());
  });
  page.on('dialog', (dialog) => {
    seen.dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  return seen;
}

export function screenshotPath(name: string): string {
  mkdirSync(ARTIFACTS, { recursive: true });
  return join(ARTIFACTS, name);
}
