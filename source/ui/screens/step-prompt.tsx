import { Box, Text } from 'ink';
import { useState } from 'react';
import { describeTurn, prettyArguments } from '../../engine/agent/preview';
import { Lines } from '../components/line-view';
import { cap, hardWrap, type Line } from '../components/lines';
import { MESSAGE_BOX_ROWS, MessageBox } from '../components/message-box';
import { useKeys } from '../components/use-keys';
import type { Prompt } from '../controller';
import { keyHint } from '../keys';
import { plural } from '../../engine/tools/format';

export type StepPromptKind = Extract<Prompt, { kind: 'step-model' | 'step-tool' }>;

export interface StepPromptProps {
  prompt: StepPromptKind;
  width: number;
  /** Rows it may use, border included. */
  rows: number;
  /** `m`: a message for the model's next call. */
  onMessage(text: string): void;
  /** `e` at a tool call: the arguments as the developer left them, or why not. */
  editArguments(args: string): Promise<{ args: string } | { problem: string }>;
  /** `s`: step mode off (the agent goes on). */
  toggleStep(): void;
}

/** The rows of what is about to happen: the request's last turn, or the tool call and its arguments. */
function bodyLines(prompt: StepPromptKind, args: string | undefined, width: number): Line[] {
  const inner = Math.max(10, width - 4);
  if (prompt.kind === 'step-model') return describeTurn(prompt.preview.lastTurn).flatMap((row) => hardWrap(row, inner)).map((text) => ({ text, dim: !text.startsWith('  ') }));
  return prettyArguments(args ?? prompt.call.arguments)
    .split('\n')
    .flatMap((row) => hardWrap(row, inner))
    .map((text) => ({ text, color: args === undefined ? undefined : 'green' }));
}

/** Rows the prompt takes in `rows` at most: border (2), title, body, status line, keys. */
export function stepPromptRows(prompt: StepPromptKind, width: number, rows: number): number {
  const body = bodyLines(prompt, undefined, width).length;
  return 2 + 1 + Math.max(1, Math.min(body, rows - 5)) + 1 + 1;
}

/**
 * Step mode's pause: what the agent is about to do (a model call and what the request adds, or a
 * tool call with its arguments), and the developer's keys — go on, write to the agent first, edit
 * the call's arguments in their editor (then Enter runs it with them), or leave step mode.
 */
export function StepPrompt({ prompt, width, rows, onMessage, editArguments, toggleStep }: StepPromptProps) {
  const [writing, setWriting] = useState(false);
  const [edited, setEdited] = useState<string | undefined>(undefined);
  const [status, setStatus] = useState<string | undefined>(undefined);
  const [editing, setEditing] = useState(false);
  const tool = prompt.kind === 'step-tool';
  useKeys(
    (char, key) => {
      if (key.return) {
        if (prompt.kind === 'step-tool') prompt.resolve(edited);
        else prompt.resolve();
      } else if (char === 'm') setWriting(true);
      else if (char === 's') toggleStep();
      else if (char === 'e' && prompt.kind === 'step-tool') {
        setEditing(true);
        void editArguments(edited ?? prompt.call.arguments).then((outcome) => {
          setEditing(false);
          if ('problem' in outcome) setStatus(`Not changed: ${outcome.problem}. e edits again, Enter runs the ${edited === undefined ? "model's" : 'edited'} arguments.`);
          else if (outcome.args === prompt.call.arguments) {
            setEdited(undefined);
            setStatus("Unchanged: it runs with the model's arguments.");
          } else {
            setEdited(outcome.args);
            setStatus('Edited: Enter runs it with your arguments (the session records your edit).');
          }
        });
      }
    },
    { isActive: !writing && !editing },
  );
  const title = prompt.kind === 'step-model' ? `⏸ step: before model call ${prompt.preview.round} · the request adds:` : `⏸ step: before the tool call ${prompt.call.name}${edited === undefined ? '' : ' (your arguments)'}`;
  const hint = keyHint('step', tool ? undefined : ['Enter', 'm', 's']);
  const boxRows = writing ? MESSAGE_BOX_ROWS : 0;
  const room = Math.max(1, rows - 5 - boxRows);
  const body = cap(bodyLines(prompt, edited, width), room, (n) => ({ text: `… ${plural(n, 'more line')}`, dim: true }));
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="cyan" paddingX={1}>
      <Text bold color="cyan" wrap="truncate">
        {title}
      </Text>
      <Lines lines={body} />
      <Text color="yellow" wrap="truncate">
        {editing ? 'In your editor…' : (status ?? ' ')}
      </Text>
      {writing ? (
        <MessageBox
          title="it goes with the next model call"
          width={width - 4}
          onSend={(text) => {
            setWriting(false);
            onMessage(text);
            if (text.trim()) setStatus('Your message goes with the next model call.');
          }}
          onCancel={() => setWriting(false)}
        />
      ) : (
        <Text dimColor wrap="truncate">
          {hint}
        </Text>
      )}
    </Box>
  );
}
