import { render } from 'ink';
import { EventEmitter } from 'node:events';
import type { EngineEvent } from '../engine/events';
import { asciicast, type CastFrame } from '../engine/session/asciicast';
import { ReplayCursor } from './replay';
import { ReplayFrame } from './screens/replay-screen';
import { recordedAt } from './view-state';

type Recorded = EngineEvent & { ts?: string; seq?: number };

/** A terminal of a fixed size that keeps what Ink drew last (Ink's debug mode writes each frame whole). */
class FrameSink extends EventEmitter {
  last = '';
  constructor(
    readonly columns: number,
    readonly rows: number,
  ) {
    super();
  }
  write = (frame: string) => {
    this.last = frame;
    return true;
  };
}

/** A keyboard nobody types on: the screens listen for keys, and get none. */
class SilentStdin extends EventEmitter {
  isTTY = true;
  setEncoding() {}
  setRawMode() {}
  resume() {}
  pause() {}
  ref() {}
  unref() {}
  read = () => null;
}

/** Ink draws at most 30 frames a second (its default `maxFps`): a recording of the live TUI holds no more. */
const FRAME_MS = 1000 / 30;

/** Moments a viewer must see, however soon the next event came (an approved review, a verdict). */
const KEY_MOMENTS = new Set<EngineEvent['type']>([
  'thm.report',
  'thm.approval',
  'tests.added',
  'agent.phase',
  'submission',
  'tests.submission',
  'tests.run',
  'tool.edit',
  'developer.message',
  'command.approval',
  'patch.decision',
  'result',
]);

/**
 * The replay's stops a cast draws: as Ink draws the live session, at most a frame per 1/30 s —
 * a stop a frame after the last one drawn, or the last before a pause of a frame or more — and
 * every key moment whatever came next.
 */
export function castStops(cursor: ReplayCursor): number[] {
  const { stops, events } = cursor;
  const time = (at: number) => (at === 0 ? -Infinity : recordedAt(events[at - 1]!));
  const drawn: number[] = [];
  stops.forEach((at, k) => {
    const next = stops[k + 1];
    const last = drawn.at(-1);
    const keep =
      at === 0 ||
      next === undefined ||
      KEY_MOMENTS.has(events[at - 1]!.type) ||
      time(next) - time(at) >= FRAME_MS ||
      last === undefined ||
      time(at) - time(last) >= FRAME_MS;
    if (keep) drawn.push(at);
  });
  return drawn;
}

/** A turn of the event loop: the effects a frame scheduled run, and their updates are drawn. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The replay's frames, as `tenet replay` draws them in a terminal of `cols`×`rows` playing at 1×:
 * one per step (THM's progress through the tests is one step) but never more than Ink draws (see
 * castStops), each at the time the session reached it.
 */
export async function castFrames(
  id: string,
  events: readonly Recorded[],
  size: { cols: number; rows: number },
): Promise<CastFrame[]> {
  const cursor = new ReplayCursor(events);
  const stdout = new FrameSink(size.cols, size.rows);
  const first = events.length ? recordedAt(events[0]!) : 0;
  const frame = (at: number) => (
    <ReplayFrame id={id} cursor={cursor} nav={{ at, playing: true, speed: 1 }} width={size.cols} height={size.rows} />
  );
  const ink = render(frame(0), {
    stdout: stdout as never,
    stderr: new FrameSink(size.cols, size.rows) as never,
    stdin: new SilentStdin() as never,
    debug: true,
    exitOnCtrlC: false,
    patchConsole: false,
  });
  const frames: CastFrame[] = [];
  try {
    for (const at of castStops(cursor)) {
      ink.rerender(frame(at));
      await settle();
      frames.push({
        atMs: at === 0 ? 0 : Math.max(0, recordedAt(events[at - 1]!) - first),
        rows: stdout.last.replace(/\n+$/, '').split('\n'),
      });
    }
  } finally {
    ink.unmount();
    ink.cleanup();
  }
  return frames;
}

/** `tenet export SESSION --format cast`: the session's replay as an asciinema v2 cast. */
export async function sessionCast(
  id: string,
  events: readonly Recorded[],
  options: { cols: number; rows: number; idleLimit: number },
): Promise<string> {
  const frames = await castFrames(id, events, options);
  const start = events.find((e) => e.type === 'session.start');
  return asciicast(frames, {
    ...options,
    title: `tenet session ${id}${start?.type === 'session.start' ? ` · ${start.target}` : ''}`,
    startedMs: events.length ? recordedAt(events[0]!) : 0,
  });
}
