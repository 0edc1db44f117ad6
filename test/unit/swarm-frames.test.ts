import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { encodeFrames, FrameReader, lineSplitter } from '../../source/engine/swarm/log-frames';
import { serviceName } from '../../source/engine/swarm/task-service';
import { runSettings, specSettings } from '../../source/engine/swarm/run-spec';
import { resolveSettings } from '../../source/engine/run/run-settings';
import { TENET_VERSION } from '../../source/engine/version';
import { ROOT } from '../helpers/fixtures';

/** Reads lines the way the coordinator reads a service's logs: payloads, and the attempts they came from. */
function reader() {
  const payloads: [string, unknown][] = [];
  const attempts: string[] = [];
  const other: string[] = [];
  const r = new FrameReader(
    (payload, attempt) => payloads.push([attempt, payload]),
    (attempt) => attempts.push(attempt),
    (line) => other.push(line),
  );
  return { r, payloads, attempts, other };
}

describe('a swarm task talks to its coordinator in framed JSON lines', () => {
  it('a payload too long for one Docker log line goes in parts, each line well under 16 KiB, and comes back whole', () => {
    // Quotes, backslashes and lone surrogates: what JSON escapes twice, the worst case for a line's length.
    const payload = { event: { type: 'tool.result', output: `"${'é\n\\"\ud800'.repeat(6000)}"` } };
    const lines = encodeFrames('a1', 0, payload);
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) expect(Buffer.byteLength(line)).toBeLessThan(16 * 1024);
    expect(lines.every((line) => line.endsWith('\n') && line.indexOf('\n') === line.length - 1)).toBe(true);
    const { r, payloads } = reader();
    for (const line of lines) r.line(line);
    expect(payloads).toEqual([['a1', payload]]);
  });

  it('logs read again from the start (a new attempt appeared) give nothing twice', () => {
    const lines = [0, 1, 2].flatMap((n) => encodeFrames('a1', n, { n }));
    const { r, payloads } = reader();
    for (const line of lines.slice(0, 2)) r.line(line);
    for (const line of lines) r.line(line);
    expect(payloads.map(([, p]) => p)).toEqual([{ n: 0 }, { n: 1 }, { n: 2 }]);
  });

  it('a new attempt starts the task again; what the killed attempt sent, read again later, is ignored', () => {
    const killed = [0, 1].flatMap((n) => encodeFrames('old', n, { n, from: 'old' }));
    const retried = [0, 1, 2].flatMap((n) => encodeFrames('new', n, { n, from: 'new' }));
    const { r, payloads, attempts } = reader();
    for (const line of [...killed, ...retried, ...killed, ...retried]) r.line(line);
    expect(attempts).toEqual(['old', 'new']);
    expect(payloads.filter(([a]) => a === 'new').map(([, p]) => p)).toEqual([0, 1, 2].map((n) => ({ n, from: 'new' })));
    expect(payloads.filter(([a]) => a === 'old')).toHaveLength(2);
  });

  it('a line torn by a kill, and lines that are not frames, are passed over; bytes split anywhere make the same lines', () => {
    const { r, payloads, other } = reader();
    const whole = encodeFrames('a', 0, { ok: true })[0]!;
    r.line(whole.slice(0, 20));
    r.line('npm warn something');
    const text = `noise\n${whole}`;
    const lines = lineSplitter((line) => r.line(line));
    for (let i = 0; i < text.length; i += 7) lines.push(text.slice(i, i + 7));
    lines.end();
    expect(payloads).toEqual([['a', { ok: true }]]);
    expect(other).toEqual([whole.slice(0, 20), 'npm warn something', 'noise']);
  });
});

describe('swarm names and the runner spec', () => {
  it('a service name is a valid Docker name of at most 63 characters', () => {
    expect(serviceName('abc123', 'shop-0')).toBe('tenet-abc123-shop-0');
    const long = serviceName('abc123', `My_Repo.With Spaces-${'x'.repeat(80)}`);
    expect(long.length).toBeLessThanOrEqual(63);
    expect(long).toMatch(/^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/);
  });

  it('settings go through JSON to the runner unchanged, T = all included', () => {
    const settings = resolveSettings({ T: Infinity }, {});
    const back = runSettings({
      format: 'tenet-swarm-run',
      settings: JSON.parse(JSON.stringify(specSettings(settings))),
      model: {},
      config: {},
      tasks: [],
    });
    expect(back).toEqual(settings);
    expect(back.T).toBe(Infinity);
  });

  it('the runner image is tagged with the version package.json has', () => {
    expect(TENET_VERSION).toBe(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version);
  });
});
