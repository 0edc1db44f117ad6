import { Box } from 'ink';
import { KEYS, type KeyScreen } from '../keys';
import { wrapText, type Line } from './lines';
import { ScrollView } from './scroll-view';

const TITLES: Record<KeyScreen, string> = {
  start: 'Start',
  startNoModel: 'Start, without a model',
  thm: 'Test selection (THM)',
  agent: 'Agent',
  viewer: 'Viewers (earlier output, test file, diff)',
  takeover: 'Debugger takeover',
  step: 'Step mode (at a pause)',
  command: 'Shell command approval',
  field: 'Text fields (search, reason, pdb line, message, THM filter)',
  result: 'Result',
  replay: 'Replay',
  sessions: 'Sessions',
  global: 'Everywhere',
  quitLive: 'Quit',
  quitOnce: 'Quit',
};

/** The key column: as wide as the longest key shown, and two spaces, so a key never runs into its description. */
const keyColumn = (screens: readonly KeyScreen[]) =>
  2 + Math.max(...screens.flatMap((screen) => KEYS[screen].map(([key]) => key.length)));

/** The overlay's rows at `width`: each group under its title, long labels wrapped under their column. */
export function helpLines(screens: readonly KeyScreen[], width: number): Line[] {
  const groups = [...screens, 'global' as const];
  const column = keyColumn(groups);
  const lines: Line[] = [];
  for (const screen of groups) {
    if (lines.length) lines.push({ text: '' });
    lines.push({ text: TITLES[screen], bold: true, color: 'cyan' });
    for (const [key, label] of KEYS[screen]) {
      wrapText(label, Math.max(10, width - column)).forEach((row, i) => {
        lines.push([{ text: (i ? '' : key).padEnd(column), bold: true }, { text: row }]);
      });
    }
  }
  return lines;
}

/** `?`: every key, grouped by where it works; scrolls when the terminal is shorter than the list. */
export function HelpOverlay({
  screens,
  width = 80,
  height = 24,
}: {
  screens: KeyScreen[];
  width?: number;
  height?: number;
}) {
  return (
    <Box flexDirection="column" borderStyle="round" paddingX={1}>
      <ScrollView
        title="Keys (? or Esc to close)"
        lines={helpLines(screens, width - 4)}
        height={Math.max(3, height - 2)}
      />
    </Box>
  );
}
