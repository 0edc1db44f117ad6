import { Box } from 'ink';
import { useContext, type ReactNode } from 'react';
import { KeysHeld } from './use-keys';

/**
 * A screen with an overlay over it (`?`'s help, a question, "too small"): the overlay is drawn and
 * has the keys; the screen stays mounted underneath, in a box of no rows, with its keys held. So
 * closing the overlay brings the screen back as it was: the tests taken in or out, the filter, a
 * message being written, where a diff was scrolled. (Unmounting it would start it afresh.)
 */
export function Covered({ by, children }: { by?: ReactNode; children: ReactNode }) {
  // An overlay over a screen that is itself covered (a question under the help) stays deaf too.
  const outer = useContext(KeysHeld);
  const covered = by !== undefined && by !== null && by !== false;
  return (
    <Box flexDirection="column">
      {covered ? (
        <Box key="overlay" flexDirection="column">
          {by}
        </Box>
      ) : null}
      <KeysHeld.Provider key="screen" value={outer || covered}>
        <Box flexDirection="column" {...(covered ? { height: 0, overflow: 'hidden' as const } : {})}>
          {children}
        </Box>
      </KeysHeld.Provider>
    </Box>
  );
}
