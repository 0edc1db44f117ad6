import { Box, Text } from 'ink';
import { contextShare } from '../../engine/agent/context-words';
import { remaining } from '../../engine/model/spend-limits';
import { shownUsage } from '../../engine/model/usage-sums';
import { costText, remainingWords, tokensInOut } from '../../engine/phrase-book';
import { DimRows } from '../components/line-view';
import type { Takeover } from '../prompt';
import type { ViewState } from '../view/types';
import { plural } from '../../engine/util/plural';

/** Rows the footer takes, for a given number of key rows. */
export const footerRows = (keyRows: number, takeover: Takeover) => 2 + (takeover === 'off' ? 0 : 1) + keyRows;

/** Step mode and the messages waiting, the latest request's share of the context window, tokens (with the share read from the prompt cache), calls and cost so far (what the cache saved last: a narrow terminal cuts it first), the takeover state, and the keys (or a notice in their place). */
export function Footer({
  view,
  takeover,
  notice,
  keys,
  queued = 0,
  step = false,
}: {
  view: ViewState;
  takeover: Takeover;
  notice?: string;
  keys: string[];
  queued?: number;
  step?: boolean;
}) {
  const t = view.totals;
  // The session's limits, what is left of them first: the bill must never surprise.
  const limits = view.session?.limits;
  const left = limits ? remaining(limits, t) : {};
  // The limit stops the session before a request that would pass it (its input counted first): a
  // last request larger than what is left says the next one may be refused.
  const last = view.agent.context?.tokens;
  const tight = left.tokens !== undefined && last !== undefined && last > left.tokens;
  const low =
    tight ||
    (left.costUsd !== undefined && left.costUsd < 0.2 * limits!.maxCostUsd!) ||
    (left.tokens !== undefined && left.tokens < 0.2 * limits!.maxTokens!);
  return (
    <Box flexDirection="column" marginTop={1}>
      <Text wrap="truncate">
        {step ? <Text color="cyan">⏸ step mode · </Text> : null}
        {queued ? <Text color="green">✉ {plural(queued, 'message')} for the next model call · </Text> : null}
        {limits ? (
          <Text color={low ? 'yellow' : 'cyan'}>
            {remainingWords(limits, remaining(limits, t))}
            {tight ? ` (the last request was ${last.toLocaleString('en-US')})` : ''} ·{' '}
          </Text>
        ) : null}
        {view.agent.context ? `${contextShare(view.agent.context)} · ` : ''}
        {tokensInOut(shownUsage(t))} · {plural(t.modelCalls, 'model call')} · {plural(t.toolCalls, 'tool call')} ·{' '}
        {costText(t.costUsd, t.cacheSavedUsd)}
      </Text>
      {takeover === 'requested' ? (
        <Text color="yellow" wrap="truncate">
          takeover: waiting for the agent's current step to end
        </Text>
      ) : null}
      {takeover === 'active' ? (
        <Text color="green" wrap="truncate">
          you have the debugger; the agent waits
        </Text>
      ) : null}
      {takeover === 'returning' ? (
        <Text color="yellow" wrap="truncate">
          handed back: the agent gets the debugger when your command ends (Ctrl+C interrupts it)
        </Text>
      ) : null}
      <DimRows rows={notice ? [notice] : keys} />
    </Box>
  );
}
