import { Box, Text } from 'ink';
import { KEYS, type KeyScreen } from '../keys';

const TITLES: Record<KeyScreen, string> = {
  thm: 'Test selection (THM)',
  agent: 'Agent',
  takeover: 'Debugger takeover',
  command: 'Shell command approval',
  result: 'Result',
  replay: 'Replay',
  sessions: 'Sessions',
  global: 'Everywhere',
};

/** `?`: every key, grouped by where it works. */
export function HelpOverlay({ screens }: { screens: KeyScreen[] }) {
  return (
    <Box flexDirection="column" borderStyle="round" paddingX={1}>
      <Text bold>Keys (? or Esc to close)</Text>
      {[...screens, 'global' as const].map((screen) => (
        <Box key={screen} flexDirection="column" marginTop={1}>
          <Text underline>{TITLES[screen]}</Text>
          {KEYS[screen].map(([key, label]) => (
            <Text key={key}>
              <Text bold>{key.padEnd(14)}</Text>
              {label}
            </Text>
          ))}
        </Box>
      ))}
    </Box>
  );
}
