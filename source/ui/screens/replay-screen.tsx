import { Box, Text, useInput } from 'ink';
import { useEffect, useMemo, useState } from 'react';
import type { EngineEvent } from '../../engine/events';
import { HelpOverlay } from '../components/help-overlay';
import { TestGrid, TranscriptItemView } from '../components/transcript-item';
import { keyHint } from '../keys';
import { JUMPS, ReplayCursor, SPEEDS } from '../replay';
import { useTerminalSize } from '../use-terminal-size';
import { Footer, Header } from './agent-screen';
import { ResultScreen } from './result-screen';
import { ThmScreen } from './thm-screen';

const speedLabel = (speed: number) => (Number.isFinite(speed) ? `${speed}×` : 'max');

/**
 * A saved session played back in the live screens: play/pause, step either way, change speed, and
 * jump to the next tool call, test run or refinement stage. The developer's decisions (an
 * override of THM's tests, commands typed in a takeover) show where they happened.
 */
export function ReplayScreen({ id, events, onBack, autoplay = true, initialSpeed = 1 }: { id: string; events: readonly (EngineEvent & { ts?: string })[]; onBack(): void; autoplay?: boolean; initialSpeed?: number }) {
  const cursor = useMemo(() => new ReplayCursor(events), [events]);
  const { width, height } = useTerminalSize();
  const [index, setIndex] = useState(0);
  const [playing, setPlaying] = useState(autoplay);
  const [speed, setSpeed] = useState<number>(initialSpeed);
  const [help, setHelp] = useState(false);
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

  useInput((input, key) => {
    if (help) {
      if (input === '?' || key.escape) setHelp(false);
      return;
    }
    if (input === '?') setHelp(true);
    else if (input === ' ') setPlaying((p) => !p);
    else if (key.rightArrow) {
      setPlaying(false);
      setIndex((i) => Math.min(cursor.length, i + 1));
    } else if (key.leftArrow) {
      setPlaying(false);
      setIndex((i) => Math.max(0, i - 1));
    } else if (input === '+' || input === '-') {
      const at = SPEEDS.indexOf(speed as (typeof SPEEDS)[number]);
      setSpeed(SPEEDS[Math.max(0, Math.min(SPEEDS.length - 1, at + (input === '+' ? 1 : -1)))]!);
    } else if (input === 'n' || input === 't' || input === 'r') {
      setPlaying(false);
      setIndex((i) => cursor.next(i, JUMPS[input]));
    } else if (input === 'q' || key.escape) onBack();
  });

  if (help) return <HelpOverlay screens={['replay']} />;
  const view = cursor.viewAt(index);
  const status = `replay ${id} · event ${index}/${cursor.length} · ${playing && !atEnd ? '▶' : '⏸'} ${speedLabel(speed)}`;
  let body;
  if (view.result) {
    body = <ResultScreen result={view.result} width={width} height={height - 4} />;
  } else if (!view.thm.approval) {
    body = <ThmScreen view={view} width={width} height={height - 4} />;
  } else {
    // No <Static> here: stepping back must be able to take lines away. The latest items that fit.
    const items = view.agent.items.slice(-Math.max(3, Math.floor((height - 12) / 3)));
    body = (
      <Box flexDirection="column">
        <Header view={view} width={width} />
        {items.map((item) => (
          <TranscriptItemView key={item.id} item={item} width={width} />
        ))}
        {view.agent.live ? <Text color="magenta">model… {view.agent.live.split('\n').slice(-3).join('\n')}</Text> : null}
        {Object.keys(view.agent.tests).length ? <TestGrid outcomes={view.agent.tests} width={width} /> : null}
        {view.debugger.lines.length ? (
          <Box flexDirection="column" borderStyle="round" borderColor="gray" paddingX={1}>
            {view.debugger.lines.slice(-5).map((line, i) => (
              <Text key={i} wrap="truncate" color={line.who === 'human' ? 'green' : line.who === 'agent' ? 'magenta' : undefined}>
                {line.text || ' '}
              </Text>
            ))}
          </Box>
        ) : null}
        <Footer view={view} takeover="off" keys="" />
      </Box>
    );
  }
  return (
    <Box flexDirection="column">
      <Text inverse>{` ${status} `}</Text>
      {body}
      <Text dimColor>{keyHint('replay')} · ? keys</Text>
    </Box>
  );
}
