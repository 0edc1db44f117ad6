import { Spinner } from '@inkjs/ui';
import { Box, Text } from 'ink';
import { printable } from '../../engine/terminal-text';
import type { ViewState } from '../view/types';
import { wrapCode, shortEnd, type Line } from './lines';
import { expandTabs } from './line-editor';
import { partialStringFields } from './partial-json';
import { useNow } from './use-now';

/** Tokens as the stream shows them before the provider counts them: about four characters each. */
export const roughTokens = (chars: number) => Math.round(chars / 4);

/** `model · 12 s · ~340 tokens`: what the call in flight has done so far. */
export function callText(call: { since: number; chars: number }, now: number): string {
  const seconds = Math.max(0, Math.floor((now - call.since) / 1000));
  return `model · ${seconds} s · ~${roughTokens(call.chars).toLocaleString('en')} tokens`;
}

/** `rate limited (429); retry 1 of 4 in 2.3 s`, counting down to `now`. */
export function retryText(retry: NonNullable<ViewState['agent']['retry']>, now: number): string {
  const left = Math.max(0, retry.at - now);
  return `${retry.reason}; retry ${retry.attempt} of ${retry.of} ${left > 0 ? `in ${(left / 1000).toFixed(1)} s` : 'now'}`;
}

/**
 * The line that says a model call runs: a spinner, the time it has taken and the tokens streamed
 * so far, so a slow model is not taken for a hung one. `clock` is `recorded` in a replay (no
 * spinner, the recording's time).
 */
export function ModelStatus({ view, clock = 'wall' }: { view: ViewState; clock?: 'wall' | 'recorded' }) {
  const call = view.agent.call;
  const now = useNow(clock === 'wall' && !!call);
  if (!call) return null;
  const text = callText(call, clock === 'wall' ? now : view.at);
  return (
    <Box>
      {clock === 'wall' ? <Spinner /> : <Text color="magenta">…</Text>}
      <Text color="magenta" wrap="truncate">
        {' '}
        {text}
      </Text>
    </Box>
  );
}

/** A failed attempt and the retry's countdown, ticking. */
export function RetryLine({ view, clock = 'wall' }: { view: ViewState; clock?: 'wall' | 'recorded' }) {
  const retry = view.agent.retry;
  const now = useNow(clock === 'wall' && !!retry, 100);
  if (!retry) return null;
  return (
    <Text color="yellow" wrap="truncate">
      model call failed: {retryText(retry, clock === 'wall' ? now : view.at)}
    </Text>
  );
}

/**
 * The tool calls the model is writing, as rows: the call's name, then each argument decoded as it
 * comes — a one-line value on the name's row, code (a value of several lines) under it, growing.
 */
export function streamingLines(streaming: ViewState['agent']['streaming'], width: number): Line[] {
  return streaming.flatMap(({ name, args }): Line[] => {
    // Decoded as they stream, escapes in the JSON (`\u001b`) are control characters again: made printable.
    const fields = Object.entries(partialStringFields(args)).map(([k, v]) => [printable(k), printable(v)] as const);
    const short = fields
      .filter(([, v]) => !v.includes('\n'))
      .map(([k, v]) => `${k}=${v}`)
      .join(' ');
    const head: Line = [
      { text: `→ ${name}`, color: 'blue' },
      { text: ` ${shortEnd(short, Math.max(10, width - name.length - 4))}`, dim: true },
      { text: ' (writing…)', color: 'magenta' },
    ];
    const code = fields
      .filter(([, v]) => v.includes('\n'))
      .flatMap(([, v]) =>
        expandTabs(v)
          .split('\n')
          .flatMap((row) =>
            wrapCode(row, Math.max(10, width - 2)).map((part) => ({ text: `  ${part}`, color: 'green' })),
          ),
      );
    return [head, ...code];
  });
}
