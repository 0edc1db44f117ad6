import { Box, Text } from 'ink';
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { EngineEvent } from '../../engine/events';
import { failuresOf } from '../components/failures';
import { Covered } from '../components/covered';
import { HelpOverlay } from '../components/help-overlay';
import { DimRows } from '../components/line-view';
import { TooSmall } from '../components/too-small';
import { hintRows } from '../keys';
import { ReplayCursor } from '../replay';
import { replayInput, type ReplayNav } from '../replay-keys';
import { sessionWallMs } from '../view-state';
import { tooSmall, useTerminalSize } from '../use-terminal-size';
import { AgentScreen } from './agent-screen';
import { ResultScreen } from './result-screen';
import { ThmScreen } from './thm-screen';
import { useKeys } from '../components/use-keys';
import { wrapText } from '../components/lines';
import { forkPoint } from '../../engine/run/fork';

const speedLabel = (speed: number) => (Number.isFinite(speed) ? `${speed}×` : 'max');
const ignore = () => undefined;

/** Events a frame's worth at a time, when the replay plays as fast as the screen repaints. */
const MAX_SPEED_EVENTS = 400;

type Recorded = EngineEvent & { ts?: string; seq?: number };

/**
 * A saved session played back in the live screens: play/pause, step either way, the ends, go to
 * an event, change speed, and jump to the next or previous tool call, test run or stage. The
 * developer's decisions (an override of THM's tests, commands typed in a takeover, the patch) show
 * where they happened. The status line on top and the keys below always fit: the screens get the
 * rows in between.
 */
export function ReplayScreen({
  id,
  events,
  onBack,
  onFork,
  autoplay = true,
  initialSpeed = 1,
  at,
}: {
  id: string;
  events: readonly Recorded[];
  onBack(): void;
  /** `f`: a fork of the session from the event on screen (its sequence number), once confirmed. */
  onFork?(at: number): void;
  autoplay?: boolean;
  initialSpeed?: number;
  /** The event to open at (its number, as `tenet replay --at` and `fork --at` count), paused there. */
  at?: number;
}) {
  const cursor = useMemo(() => new ReplayCursor(events), [events]);
  const { width, height } = useTerminalSize();
  // The state the keys change, in a ref set at once: a burst of keys between two frames moves from
  // where the key before left it, not from the frame's (see list-cursor.ts).
  const live = useRef<ReplayNav | undefined>(undefined);
  live.current ??=
    at !== undefined
      ? { at: cursor.positionOf(at) ?? 0, playing: false, speed: initialSpeed }
      : { at: 0, playing: autoplay, speed: initialSpeed };
  const [nav, setNavState] = useState<ReplayNav>(live.current);
  const setNav = (next: ReplayNav) => {
    live.current = next;
    setNavState(next);
  };
  const [help, setHelp] = useState(false);
  // A viewer of the agent screen is open: its keys (arrows, Esc) are not the replay's.
  const [viewer, setViewer] = useState(false);
  // `f`: the event to fork from, waiting for y; or why there is nothing to fork from here.
  const [forking, setForking] = useState<{ at: number } | { problem: string } | undefined>(undefined);
  const index = nav.at;
  const atEnd = index >= cursor.length;

  useEffect(() => {
    if (!nav.playing || atEnd) return;
    const to = Number.isFinite(nav.speed)
      ? cursor.nextStop(index)
      : cursor.nextStop(Math.min(cursor.length, index + MAX_SPEED_EVENTS) - 1);
    const wait = Number.isFinite(nav.speed) ? cursor.delay(index, to, nav.speed) : 16;
    const timer = setTimeout(() => setNav({ ...live.current!, at: to }), wait);
    return () => clearTimeout(timer);
  }, [nav.playing, index, nav.speed, atEnd, cursor]);

  useKeys((input, key) => {
    if (help) {
      if (input === '?' || key.escape) setHelp(false);
      return;
    }
    if (viewer) return;
    if (forking) {
      if ('at' in forking && input === 'y') onFork?.(forking.at);
      setForking(undefined);
      return;
    }
    const moved = replayInput(live.current!, input, key, cursor);
    if (!moved) return;
    setNav(moved.nav);
    if (moved.back) onBack();
    else if (moved.open === 'help') setHelp(true);
    else if (moved.open === 'fork' && onFork) {
      setNav({ ...moved.nav, playing: false });
      const event = cursor.eventAt(moved.nav.at);
      try {
        forkPoint(id, events, event);
        setForking({ at: event });
      } catch (error) {
        setForking({ problem: (error as Error).message });
      }
    }
  });

  // Help (or "too small") covers the screen, which stays mounted: a viewer, a scroll are kept.
  const overlay = tooSmall({ width, height }) ? (
    <TooSmall width={width} height={height} />
  ) : help ? (
    <HelpOverlay screens={['replay', 'viewer', 'quitOnce']} width={width} height={height - 1} />
  ) : undefined;
  let prompt: string[] | undefined;
  if (forking)
    prompt = wrapText(
      'at' in forking
        ? `Fork ${id} at event ${forking.at}? A new session: its history is this one's up to here (recorded answers, no cost), then the model answers live; when its run ends, you are back here. y forks · any other key does not`
        : `${forking.problem} (any key)`,
      width,
    ).slice(0, 3);
  else if (nav.goto !== undefined) prompt = [`go to event: ${nav.goto}▏ (Enter goes there · Esc does not)`];
  else if (nav.notice) prompt = [nav.notice];
  return (
    <Covered by={overlay}>
      <ReplayFrame
        id={id}
        cursor={cursor}
        nav={nav}
        width={width}
        height={height}
        prompt={prompt}
        hideKeys={onFork ? [] : ['f']}
        onViewer={setViewer}
      />
    </Covered>
  );
}

/**
 * What a replay shows at one position: the status line, the screen the session was on (THM's
 * review, the agent, the result), and the keys or a question below. Drawn by the replay, and
 * frame by frame into an asciinema cast (cast.tsx).
 */
export function ReplayFrame({
  id,
  cursor,
  nav,
  width,
  height,
  prompt,
  hideKeys = [],
  onViewer = ignore,
}: {
  id: string;
  cursor: ReplayCursor;
  nav: ReplayNav;
  width: number;
  height: number;
  /** Rows that take the keys' place, in yellow: a question, the event number being typed, a notice. */
  prompt?: readonly string[] | undefined;
  hideKeys?: readonly string[];
  onViewer?(open: boolean): void;
}): ReactNode {
  const index = nav.at;
  const atEnd = index >= cursor.length;
  const view = cursor.viewAt(index);
  const status = `replay ${id} · event ${cursor.eventAt(index)}/${cursor.eventAt(cursor.length)} · ${nav.playing && !atEnd ? '▶' : '⏸'} ${speedLabel(nav.speed)}`;
  const keys = prompt ?? hintRows('replay', width, 2, [], hideKeys);
  // The status line, the keys, and the row Ink keeps free under the frame.
  const body = height - 2 - keys.length;
  let screen;
  if (view.result) {
    screen = (
      <ResultScreen
        result={view.result}
        width={width}
        height={body}
        replay
        {...(view.thm.approval ? { selected: view.thm.approval.chosen } : {})}
        {...(view.patch ? { decision: view.patch } : {})}
        failures={failuresOf(view.evaluation?.report ?? '')}
        submissions={view.agent.submissions}
        session={{ wallMs: sessionWallMs(view), parts: view.clock.parts }}
        {...(view.session ? { sandbox: view.session.sandbox } : {})}
        {...(view.keptTests ? { keptTests: view.keptTests } : {})}
        onViewer={onViewer}
      />
    );
  } else if (!view.thm.approval) {
    screen = <ThmScreen view={view} width={width} height={body} clock="recorded" />;
  } else {
    screen = (
      <AgentScreen
        view={view}
        takeover="off"
        width={width}
        height={body}
        allowAlways={ignore}
        onSend={ignore}
        mode="replay"
        onViewer={onViewer}
      />
    );
  }
  return (
    <>
      <Text inverse wrap="truncate">{` ${status} `}</Text>
      {screen}
      {prompt ? (
        <Box flexDirection="column">
          {prompt.map((row, i) => (
            <Text key={i} color="yellow" wrap="truncate">
              {row}
            </Text>
          ))}
        </Box>
      ) : (
        <DimRows rows={keys} />
      )}
    </>
  );
}
