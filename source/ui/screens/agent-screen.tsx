import { Box, Static, Text, useInput } from 'ink';
import { useState } from 'react';
import type { CommandDecision } from '../../engine/run/pilot';
import { TestGrid, TranscriptItemView } from '../components/transcript-item';
import type { Prompt, Takeover } from '../controller';
import { keyHint } from '../keys';
import type { TranscriptItem, ViewState } from '../view-state';

const money = (usd: number) => `$${usd.toFixed(usd < 1 ? 4 : 2)}`;

/** Where the agent is: pre-generation round i/15, or refinement attempt j/5 and its stage. */
export function phaseLine(view: ViewState): string {
  const a = view.agent;
  switch (a.phase) {
    case 'pregen':
      return `pre-generation · round ${a.round}/${a.pregenRounds}`;
    case 'validate':
      return 'running the selected tests';
    case 'rrw':
      return `refinement attempt ${a.attempt}/${a.attempts} · ${a.stage?.replace(/-/g, ' ')} · round ${a.round}`;
    case 'tdd-setup':
      return `tests first · round ${a.round}/${a.tdd?.setupRounds ?? '?'}`;
    case 'tdd':
      return `co-refinement · test run ${a.tdd?.iteration}/${a.tdd?.iterations} · round ${a.round}`;
    case 'evaluate':
      return 'evaluating on every failing test';
    case 'done':
      return 'done';
    default:
      return 'preparing the tools';
  }
}

export function Header({ view, width }: { view: ViewState; width: number }) {
  const s = view.session;
  return (
    <Box flexDirection="column" borderStyle="single" borderBottom borderTop={false} borderLeft={false} borderRight={false}>
      <Text wrap="truncate">
        <Text bold>tenet</Text> · {s?.target ?? '…'} {s?.mode === 'blank' ? <Text dimColor>(benchmark)</Text> : ''} · <Text color="cyan">{phaseLine(view)}</Text>
      </Text>
      <Text wrap="truncate" dimColor>
        {s ? `model: ${s.modelLabel}` : ''}
        {width > 100 && s ? ` · session ${s.id}` : ''}
      </Text>
    </Box>
  );
}

export function Footer({ view, takeover, notice, keys }: { view: ViewState; takeover: Takeover; notice?: string; keys: string }) {
  const t = view.totals;
  return (
    <Box flexDirection="column" marginTop={1}>
      <Text wrap="truncate">
        tokens {t.inputTokens.toLocaleString('en')} in / {t.outputTokens.toLocaleString('en')} out · {money(t.costUsd)} · {t.modelCalls} model calls · {t.toolCalls} tool calls
      </Text>
      {takeover === 'requested' ? <Text color="yellow">takeover: waiting for the agent's current step to end</Text> : null}
      {takeover === 'active' ? <Text color="green">you have the debugger; the agent waits</Text> : null}
      <Text wrap="truncate" dimColor>
        {notice ?? keys}
      </Text>
    </Box>
  );
}

function DebuggerPane({ view, takeover, width, lines, onSend }: { view: ViewState; takeover: Takeover; width: number; lines: number; onSend: (line: string) => void }) {
  const [input, setInput] = useState('');
  useInput(
    (char, key) => {
      if (key.return) {
        onSend(input);
        setInput('');
      } else if (key.backspace || key.delete) setInput((v) => v.slice(0, -1));
      else if (!key.ctrl && !key.meta && char && !key.escape) setInput((v) => v + char);
    },
    { isActive: takeover === 'active' },
  );
  const shown = view.debugger.lines.slice(-lines);
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={takeover === 'active' ? 'green' : 'gray'} paddingX={1}>
      <Text bold>
        debugger {view.debugger.mode ? `(${view.debugger.mode})` : ''} {takeover === 'active' ? '· yours: type a command, Enter sends, Esc hands back' : ''}
      </Text>
      {shown.map((line, i) => (
        <Text key={i} wrap="truncate" color={line.who === 'human' ? 'green' : line.who === 'agent' ? 'magenta' : undefined}>
          {line.text.length > width - 4 ? line.text.slice(0, width - 5) : line.text || ' '}
        </Text>
      ))}
      {takeover === 'active' ? (
        <Text>
          <Text color="green">{view.debugger.mode === 'pdb' ? '(Pdb) ' : '$ '}</Text>
          {input}
          <Text inverse> </Text>
        </Text>
      ) : null}
    </Box>
  );
}

function CommandPrompt({ prompt }: { prompt: Extract<Prompt, { kind: 'approve-command' }> & { allowAlways(): void } }) {
  const [reason, setReason] = useState<string | undefined>(undefined);
  useInput((char, key) => {
    if (reason !== undefined) {
      if (key.return) prompt.resolve({ run: false, reason } satisfies CommandDecision);
      else if (key.escape) setReason(undefined);
      else if (key.backspace || key.delete) setReason((r) => (r ?? '').slice(0, -1));
      else if (char && !key.ctrl) setReason((r) => (r ?? '') + char);
      return;
    }
    if (char === 'y') prompt.resolve({ run: true });
    else if (char === 'a') {
      prompt.allowAlways();
      prompt.resolve({ run: true });
    } else if (char === 'e') setReason('');
    else if (key.escape) prompt.resolve({ stop: true });
  });
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="yellow" paddingX={1}>
      <Text bold>The agent wants to run a shell command:</Text>
      <Text color="yellow">$ {prompt.command}</Text>
      {reason === undefined ? <Text dimColor>{keyHint('command')}</Text> : <Text>Why not? {reason}<Text inverse> </Text> <Text dimColor>(Enter sends)</Text></Text>}
    </Box>
  );
}

function CancelledPrompt({ prompt }: { prompt: Extract<Prompt, { kind: 'cancelled-call' }> }) {
  useInput((char, key) => {
    if (key.return || char === 'r') prompt.resolve('retry');
    else if (char === 's' || key.escape) prompt.resolve('stop');
  });
  return (
    <Box borderStyle="round" borderColor="yellow" paddingX={1}>
      <Text>The model call was cancelled. Enter: make it again · s: stop the agent and evaluate what it has</Text>
    </Box>
  );
}

export interface AgentScreenProps {
  view: ViewState;
  prompt?: Prompt;
  takeover: Takeover;
  notice?: string;
  width: number;
  height: number;
  allowAlways(): void;
  onSend(line: string): void;
}

/**
 * The agent at work: finished transcript items in Ink's <Static> (never re-rendered), the latest
 * item and the streaming model text live, the debugger pane, and a footer with the running cost.
 */
export function AgentScreen({ view, prompt, takeover, notice, width, height, allowAlways, onSend }: AgentScreenProps) {
  const [expanded, setExpanded] = useState(false);
  const [showDebugger, setShowDebugger] = useState(true);
  useInput(
    (char) => {
      if (char === 'e') setExpanded((e) => !e);
      else if (char === 'd') setShowDebugger((d) => !d);
    },
    { isActive: takeover !== 'active' && !prompt },
  );
  const items = view.agent.items;
  const done: TranscriptItem[] = items.slice(0, -1);
  const current = items.at(-1);
  const debuggerOpen = takeover !== 'off' || (showDebugger && view.debugger.lines.length > 0);
  const liveLines = view.agent.live.split('\n').slice(-Math.max(3, Math.floor(height / 4)));
  return (
    <Box flexDirection="column">
      <Static items={done}>{(item) => <TranscriptItemView key={item.id} item={item} width={width} />}</Static>
      <Header view={view} width={width} />
      {current ? <TranscriptItemView item={current} width={width} expanded={expanded} /> : null}
      {view.agent.retry ? <Text color="yellow">model call failed: {view.agent.retry}</Text> : null}
      {view.agent.live ? (
        <Box flexDirection="column">
          <Text color="magenta">model…</Text>
          <Text>{liveLines.join('\n')}</Text>
        </Box>
      ) : null}
      {Object.keys(view.agent.tests).length ? (
        <Box flexDirection="column" marginTop={1}>
          <Text bold>selected tests</Text>
          <TestGrid outcomes={view.agent.tests} width={width} />
        </Box>
      ) : null}
      {view.agent.tdd ? <TddPanel tdd={view.agent.tdd} width={width} /> : null}
      {debuggerOpen ? <DebuggerPane view={view} takeover={takeover} width={width} lines={Math.max(3, Math.min(12, Math.floor(height / 3)))} onSend={onSend} /> : null}
      {prompt?.kind === 'approve-command' ? <CommandPrompt prompt={{ ...prompt, allowAlways }} /> : null}
      {prompt?.kind === 'cancelled-call' ? <CancelledPrompt prompt={prompt} /> : null}
      <Footer view={view} takeover={takeover} {...(notice ? { notice } : {})} keys={takeover === 'active' ? keyHint('takeover') : `${keyHint('agent')} · ? keys`} />
    </Box>
  );
}

/**
 * TDD strategies: the agent's test file (name, version, size), which side each iteration revised
 * (T for tests, C for code), and its tests' latest outcomes.
 */
export function TddPanel({ tdd, width }: { tdd: NonNullable<ViewState['agent']['tdd']>; width: number }) {
  const file = tdd.testFile;
  const byIteration = new Map<number, Set<string>>();
  for (const r of tdd.revisions) byIteration.set(r.iteration, new Set([...(byIteration.get(r.iteration) ?? []), r.side === 'tests' ? 'T' : 'C']));
  const track = [...byIteration.entries()].map(([i, sides]) => `${i === 0 ? 'first' : i}:${[...sides].sort().reverse().join('')}`).join(' ');
  return (
    <Box flexDirection="column" marginTop={1}>
      <Text>
        <Text bold>generated tests</Text>{' '}
        {file ? (
          <Text dimColor>
            {file.path} · version {file.versions} · {file.code.split('\n').length} lines
          </Text>
        ) : (
          <Text dimColor>not written yet</Text>
        )}
        {track ? <Text dimColor> · revisions {track}</Text> : null}
      </Text>
      {Object.keys(tdd.outcomes).length ? <TestGrid outcomes={tdd.outcomes} width={width} /> : null}
    </Box>
  );
}
