/** Every key of the TUI, by screen: the help overlay (`?`) and the footers read from here. */
export const KEYS = {
  thm: [
    ['↑ ↓', 'move'],
    ['→ ←', 'expand / collapse a cluster'],
    ['space', 'take a test in or out'],
    ['+ -', 'change T and propose again'],
    ['v', "view a test's source"],
    ['Enter', 'approve the selection'],
    ['a', 'accept the proposal as it is'],
  ],
  agent: [
    ['t', 'take over the debugger (the agent waits before its next model call)'],
    ['Esc', 'cancel the current model call'],
    ['e', 'expand / collapse the latest output'],
    ['d', 'show / hide the debugger pane'],
  ],
  takeover: [
    ['Enter', 'send the line to the live session'],
    ['Esc', 'hand the session back to the agent'],
  ],
  command: [
    ['y', 'run it, this once'],
    ['a', 'allow every shell command this session'],
    ['e', 'deny it, with a reason you type'],
    ['Esc', 'stop the agent'],
  ],
  result: [
    ['a', 'apply the patch to the checkout'],
    ['r', 'reject it'],
    ['s', 'save and quit'],
  ],
  replay: [
    ['space', 'play / pause'],
    ['→ ←', 'step forward / back'],
    ['+ -', 'faster / slower'],
    ['n', 'next tool call'],
    ['t', 'next test run'],
    ['r', 'next refinement stage'],
    ['q', 'back'],
  ],
  sessions: [
    ['↑ ↓', 'move'],
    ['Enter', 'replay the session'],
    ['q', 'quit'],
  ],
  global: [
    ['?', 'show these keys'],
    ['Ctrl+C twice', 'quit (the session is saved)'],
  ],
} as const;

export type KeyScreen = keyof typeof KEYS;

/** A footer line: `key label · key label`. */
export function keyHint(screen: KeyScreen, only?: readonly string[]): string {
  return KEYS[screen]
    .filter(([key]) => !only || only.includes(key))
    .map(([key, label]) => `${key} ${label.split(' (')[0]}`)
    .join(' · ');
}
