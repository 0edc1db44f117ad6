import { Box, Text } from 'ink';
import { useEffect, useMemo, useState } from 'react';
import type { EngineEvent } from '../../engine/events';
import { failuresOf } from '../components/failures';
import { Covered } from '../components/covered';
import { HelpOverlay } from '../components/help-overlay';
import { DimRows } from '../components/line-view';
import { TooSmall } from '../components/too-small';
import { hintRows } from '../keys';
import { JUMPS, ReplayCursor, stepSpeed } from '../replay';
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

/**
 * A saved session played back in the live screens: play/pause, step either way, change speed, and
 * jump to the next tool call, test run or stage. The developer's decisions (an override of THM's
 * tests, commands typed in a takeover, the patch) show where they happened. The status line on top
 * and the keys below always fit: the screens get the rows in between.
 */
export function ReplayScreen({
  id,
  events,
  onBack,
  onFork,
  autoplay = true,
  initialSpeed = 1,
}: {
  id: string;
  events: readonly (EngineEvent & { ts?: string; seq?: number })[];
  onBack(): void;
  /** `f`: a fork of the session from the event on screen (its sequence number), once confirmed. */
  onFork?(at: number): void;
  autoplay?: boolean;
  initialSpeed?: number;
}) {
  const cursor = useMemo(() => new ReplayCursor(events), [events]);
  const { width, height } = useTerminalSize();
  const [index, setIndex] = useState(0);
  const [playing, setPlaying] = useState(autoplay);
  const [speed, setSpeed] = useState<number>(initialSpeed);
  const [help, setHelp] = useState(false);
  // A viewer of the agent screen is open: its keys (arrows, Esc) are not the replay's.
  const [viewer, setViewer] = useState(false);
  // `f`: the event to fork from, waiting for y; or why there is nothing to fork from here.
  const [forking, setForking] = useState<{ at: number } | { problem: string } | undefined>(undefined);
  const atEnd = index >= cursor.length;

  useEffect(() => {
    if (!playing || atEnd) return;
    if (!Number.isFinite(speed)) {
      // As fast as the screen repaints: a frame's worth of events at a time.
      const timer = setTimeout(() => setIndex((i) => Math.min(cursor.length, i + 400)), 16);
      return () => clearTimeout(timer);
    }
    const timer = setTimeout(() => setIndex((i) => i + 1), cursor.delayBefore(index, speed));
    return () => clearTimeout(timer);
  }, [playing, index, speed, atEnd, cursor]);

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
    if (input === '?') setHelp(true);
    else if (input === 'f' && onFork) {
      setPlaying(false);
      const at = events[index - 1]?.seq ?? index;
      try {
        forkPoint(id, events, at);
        setForking({ at });
      } catch (error) {
        setForking({ problem: (error as Error).message });
      }
    }
    else if (input === ' ') setPlaying((p) => !p);
    else if (key.rightArrow) {
      setPlaying(false);
      setIndex((i) => Math.min(cursor.length, i + 1));
    } else if (key.leftArrow) {
      setPlaying(false);
      setIndex((i) => Math.max(0, i - 1));
    } else if (input === '+' || input === '-') setSpeed((s) => stepSpeed(s, input === '+' ? 1 : -1));
    else if (input === 'n' || input === 't' || input === 'r') {
      setPlaying(false);
      setIndex((i) => cursor.next(i, JUMPS[input]));
    } else if (input === 'q' || key.escape) onBack();
  });

  // Help (or "too small") covers the screen, which stays mounted: a viewer, a scroll are kept.
  const overlay = tooSmall({ width, height }) ? <TooSmall width={width} height={height} /> : help ? <HelpOverlay screens={['replay', 'viewer', 'quitOnce']} width={width} height={height - 1} /> : undefined;
  const view = cursor.viewAt(index);
  const status = `replay ${id} · event ${index}/${cursor.length} · ${playing && !atEnd ? '▶' : '⏸'} ${speedLabel(speed)}`;
  const keys = forking
    ? wrapText('at' in forking ? `Fork ${id} at event ${forking.at}? A new session: its history is this one's up to here (recorded answers, no cost), then the model answers live. y forks · any other key does not` : `${forking.problem} (any key)`, width).slice(0, 3)
    : hintRows('replay', width, 2, [], onFork ? [] : ['f']);
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
        onViewer={setViewer}
      />
    );
  } else if (!view.thm.approval) {
    screen = <ThmScreen view={view} width={width} height={body} clock="recorded" />;
  } else {
    screen = <AgentScreen view={view} takeover="off" width={width} height={body} allowAlways={ignore} onSend={ignore} mode="replay" onViewer={setViewer} />;
  }
  return (
    <Covered by={overlay}>
      <Text inverse wrap="truncate">{` ${status} `}</Text>
      {screen}
      {forking ? (
        <Box flexDirection="column">
          {keys.map((row, i) => (
            <Text key={i} color="yellow" wrap="truncate">
              {row}
            </Text>
          ))}
        </Box>
      ) : (
        <DimRows rows={keys} />
      )}
    </Covered>
  );
}
