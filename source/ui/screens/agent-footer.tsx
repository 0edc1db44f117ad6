import { Box, Text } from 'ink';
import { shownUsage } from '../../engine/model/usage-sums';
import { costText, tokensInOut } from '../../engine/phrase-book';
import { DimRows } from '../components/line-view';
import type { Takeover } from '../controller';
import type { ViewState } from '../view-state';

/** Rows the footer takes, for a given number of key rows. */
export const footerRows = (keyRows: number, takeover: Takeover) => 2 + (takeover === 'off' ? 0 : 1) + keyRows;

/** Tokens (with the share read from the prompt cache), calls and cost so far (what the cache saved last: a narrow terminal cuts it first), the takeover state, and the keys (or a notice in their place). */
export function Footer({ view, takeover, notice, keys }: { view: ViewState; takeover: Takeover; notice?: string; keys: string[] }) {
  const t = view.totals;
  return (
    <Box flexDirection="column" marginTop={1}>
      <Text wrap="truncate">
        {tokensInOut(shownUsage(t))} · {t.modelCalls} model calls · {t.toolCalls} tool calls · {costText(t.costUsd, t.cacheSavedUsd)}
      </Text>
      {takeover === 'requested' ? <Text color="yellow" wrap="truncate">takeover: waiting for the agent's current step to end</Text> : null}
      {takeover === 'active' ? <Text color="green" wrap="truncate">you have the debugger; the agent waits</Text> : null}
      <DimRows rows={(notice ? [notice] : keys)} />
    </Box>
  );
}
