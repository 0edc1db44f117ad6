import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CHROMIUM, describeBrowser, openBrowser } from '../helpers/browser';
import { runCli } from '../helpers/cli';

// Issue 46.11: `#event=100` of the exported page, screenshotted by headless chromium
// (`--screenshot`), was blank: the page scrolled to the event before its first paint, and the
// tiles that far down were not drawn yet. Playwright, which waits for more frames, showed it.

const scratch = mkdtempSync(join(tmpdir(), 'tenet-page-link-'));
let browser: Awaited<ReturnType<typeof openBrowser>>;
beforeAll(async () => {
  browser = await openBrowser();
});
afterAll(async () => {
  await browser?.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** How many colours a PNG has (read in the browser's canvas): a blank page has one or two. */
async function colours(png: string): Promise<number> {
  const page = await browser.context.newPage();
  try {
    await page.setContent(`<img id="shot" src="data:image/png;base64,${readFileSync(png).toString('base64')}">`);
    await page.waitForFunction('document.getElementById("shot").complete');
    return await page.evaluate(`(() => {
      const img = document.getElementById('shot');
      const canvas = document.createElement('canvas');
      canvas.width = img.naturalWidth;
      canvas.height = img.naturalHeight;
      const g = canvas.getContext('2d');
      g.drawImage(img, 0, 0);
      const data = g.getImageData(0, 0, canvas.width, canvas.height).data;
      const seen = new Set();
      for (let i = 0; i < data.length; i += 4) seen.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
      return seen.size;
    })()`);
  } finally {
    await page.close();
  }
}

describeBrowser('a link to an event of the exported page, at its first paint', () => {
  it('headless chromium’s --screenshot of #event=100 shows the event’s card, not a blank page', async () => {
    const file = join(scratch, 'demo.html');
    const exported = await runCli(['export', 'demo', '--format', 'html', '--out', file]);
    expect(exported.code, exported.stderr).toBe(0);
    const url = `${pathToFileURL(file).href}#event=100`;
    const shot = join(scratch, 'shot.png');
    const run = spawnSync(
      CHROMIUM,
      ['--headless', '--no-sandbox', '--disable-gpu', '--window-size=1200,900', `--screenshot=${shot}`, url],
      { encoding: 'utf8', timeout: 60_000 },
    );
    expect(run.status, run.stderr).toBe(0);
    expect(await colours(shot)).toBeGreaterThan(50);

    // In a browser a person uses: the event's card at the top, the earlier cards one click (or a
    // scroll up) away, and the card still on the screen when they come back.
    const page = await browser.context.newPage();
    await page.goto(url);
    await expect.poll(() => page.textContent('#position')).toContain('event 100 of 113');
    const earlier = page.locator('button.earlier');
    expect(await earlier.textContent()).toMatch(/↑ \d+ earlier cards/);
    await earlier.click();
    expect(await earlier.count()).toBe(0);
    const onScreen = await page.evaluate(`(() => {
      const box = document.querySelector('.card.current').getBoundingClientRect();
      return box.top >= 0 && box.top < innerHeight;
    })()`);
    expect(onScreen).toBe(true);
    expect(await page.locator('.card:visible').count()).toBeGreaterThan(20);

    // At the top of the page a scroll up moves nothing, so PageUp (like the wheel) brings them back too.
    await page.goto(`${pathToFileURL(file).href}#event=62`);
    await page.reload(); // only the hash changed: a reload opens the page at it
    await expect.poll(() => page.textContent('#position')).toContain('event 62 of 113');
    expect(await page.locator('button.earlier').count()).toBe(1);
    const before = await page.locator('.card:visible').count();
    await page.keyboard.press('PageUp');
    expect(await page.locator('button.earlier').count()).toBe(0);
    expect(await page.locator('.card:visible').count()).toBeGreaterThan(before);
    await page.close();
  }, 120_000);
});
