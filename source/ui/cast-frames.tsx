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

/** A turn of the event loop: the effects a frame scheduled run, and their updates are drawn. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The replay's frames, as `tenet replay` draws them in a terminal of `cols`×`rows` playing at 1×:
 * one per step (THM's progress through the tests is one step), each at the time the session
 * reached it.
 */
export async function castFrames(id: string, events: readonly Recorded[], size: { cols: number; rows: number }): Promise<CastFrame[]> {
  const cursor = new ReplayCursor(events);
  const stdout = new FrameSink(size.cols, size.rows);
  const first = events.length ? recordedAt(events[0]!) : 0;
  const frame = (at: number) => <ReplayFrame id={id} cursor={cursor} nav={{ at, playing: true, speed: 1 }} width={size.cols} height={size.rows} />;
  const ink = render(frame(0), { stdout: stdout as never, stderr: new FrameSink(size.cols, size.rows) as never, stdin: new SilentStdin() as never, debug: true, exitOnCtrlC: false, patchConsole: false });
  const frames: CastFrame[] = [];
  try {
    for (const at of cursor.stops) {
      ink.rerender(frame(at));
      await settle();
      frames.push({ atMs: at === 0 ? 0 : Math.max(0, recordedAt(events[at - 1]!) - first), rows: stdout.last.replace(/\n+$/, '').split('\n') });
    }
  } finally {
    ink.unmount();
    ink.cleanup();
  }
  return frames;
}

/** `tenet export SESSION --format cast`: the session's replay as an asciinema v2 cast. */
export async function sessionCast(id: string, events: readonly Recorded[], options: { cols: number; rows: number; idleLimit: number }): Promise<string> {
  const frames = await castFrames(id, events, options);
  const start = events.find((e) => e.type === 'session.start');
  return asciicast(frames, {
    ...options,
    title: `tenet session ${id}${start?.type === 'session.start' ? ` · ${start.target}` : ''}`,
    startedMs: events.length ? recordedAt(events[0]!) : 0,
  });
}
