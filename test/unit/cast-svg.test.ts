import { describe, expect, it } from 'vitest';
import { castFrameSvg } from '../../scripts/cast-svg';

/** An asciicast v2 recording of a 20×3 terminal with these frames. */
function cast(...frames: string[]): string {
  const header = JSON.stringify({ version: 2, width: 20, height: 3 });
  return [header, ...frames.map((text, i) => JSON.stringify([i * 0.5, 'o', text]))].join('\n');
}

describe("the README's picture: a cast's frame as SVG", () => {
  it('draws the first frame that shows the text, with its colours, on the grid, as escaped text', async () => {
    const svg = await castFrameSvg(
      cast('\x1b[2J\x1b[Hstarting', '\x1b[1;1H\x1b[32mPASS\x1b[39m a<b & c\x1b[K', '\x1b[1;1Hlater'),
      'PASS',
      'a <test>',
    );
    expect(svg).toContain('<title>a &lt;test&gt;</title>');
    // Green (palette 2) for PASS, at column 0; the rest in the default colour from column 4, escaped.
    expect(svg).toMatch(/<text x="16\.0" y="30" textLength="33\.6"[^>]* fill="#0dbc79"[^>]*>PASS<\/text>/);
    expect(svg).toMatch(/<text x="49\.6" [^>]*textLength="67\.2"[^>]* fill="#cccccc">\sa&lt;b &amp; c<\/text>/);
    expect(svg).not.toContain('later');
    expect(svg).not.toContain('starting');
  });

  it('draws inverse video as a background of the text colour', async () => {
    const svg = await castFrameSvg(cast('\x1b[7m status \x1b[27m'), 'status', 'bar');
    expect(svg).toContain('<rect x="16.0" y="16" width="67.2" height="18" fill="#cccccc"/>');
    expect(svg).toMatch(/fill="#1e1e1e"[^>]*>\s?status<\/text>/);
  });

  it('says which text no frame showed, rather than draw the wrong moment', async () => {
    await expect(castFrameSvg(cast('hello'), '(Pdb) q', 'x')).rejects.toThrow(
      'no frame of the cast shows "(Pdb) q": pick a text the frame you want shows (--frame-with)',
    );
    await expect(castFrameSvg('{"version":2}', 'x', 'x')).rejects.toThrow('its header has no size');
  });
});
