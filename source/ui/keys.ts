import { pack } from './components/lines';

/**
 * Every key of the TUI, by screen: the help overlay (`?`) and the footers read from here. The
 * third field is the footer's short label, used when the long ones would take too many rows.
 */
export const KEYS = {
  start: [
    ['type', 'search the functions', 'search'],
    ['↑ ↓', 'move'],
    ['PgUp PgDn', 'move a page', 'page'],
    ['Home End', 'go to the first / last function (Ctrl+A Ctrl+E: the search line)', 'ends'],
    ['Enter', 'start a session on the function', 'start'],
    ['Tab', 'switch stub / benchmark mode', 'stub/benchmark'],
    ['Esc', 'clear the search; quit when it is empty', 'clear/quit'],
  ],
  /** The start screen when no model is configured: nothing to search for, the demo one key away. */
  startNoModel: [
    ['d', 'run the scripted demo on the built-in example (no API key needed)', 'demo'],
    ['↑ ↓', 'move'],
    ['Esc q', 'quit'],
  ],
  thm: [
    ['↑ ↓', 'move'],
    ['PgUp PgDn', 'move a page', 'page'],
    ['Home End', 'go to the first / last row', 'ends'],
    ['→ ←', 'expand / collapse a cluster', 'expand'],
    ['/', 'filter clusters and tests by text (Enter keeps it; Esc clears it, then closes the field)', 'filter'],
    ['space', 'take a test in / out', 'toggle'],
    ['+ -', 'change T (THM proposes again; the tests you took in or out stay so)', 'T'],
    ['v', "view a test's source", 'source'],
    ['n', 'new test (in $EDITOR; it joins if it fails on the stub)', 'new test'],
    ['e', "edit its file (the highlighted test's, in $EDITOR)", 'edit test'],
    ['Enter', 'approve the selection', 'approve'],
    ['a', 'accept the proposal as it is', 'accept proposal'],
  ],
  agent: [
    ['t', 'take over the debugger (the agent waits before its next model call)', 'take over'],
    ['m', 'write to the agent (your message goes with its next model call)', 'message'],
    ['s', 'step mode on / off (pause before every model call and tool call)', 'step'],
    ['Esc', 'cancel the current model call', 'cancel call'],
    ['x', 'stop the agent and evaluate what it has (asks first; a model call in flight is cancelled)', 'stop'],
    ['e', 'expand / collapse the latest output', 'expand'],
    ['o', 'open any earlier output in full', 'earlier output'],
    ['v', "view the agent's test file (TDD)", 'test file'],
    ['d', 'show / hide the debugger pane', 'debugger'],
  ],
  viewer: [
    ['↑ ↓', 'scroll a line (or move in a list)'],
    ['PgUp PgDn', 'scroll a page'],
    ['Home End', 'go to the top / the end'],
    ['Enter', 'open the highlighted item'],
    ['Esc', 'close'],
  ],
  takeover: [
    ['Enter', 'send the line to the live session (a pasted block goes line by line)', 'send'],
    ['↑ ↓', 'earlier lines you typed', 'history'],
    ['Ctrl+C', 'interrupt the program being debugged (SIGINT), not tenet', 'interrupt'],
    ['Esc', 'clear the line; on an empty line hand the session back to the agent', 'clear/hand back'],
  ],
  /** Step mode's pause before a model call or a tool call. */
  step: [
    ['Enter', 'go on (run the tool call)', 'go on'],
    ['m', 'write to the agent first', 'message'],
    [
      'e',
      "edit the tool call's arguments in $EDITOR (before a model call: all of what the request adds, or its first lines again)",
      'edit',
    ],
    ['s', 'step mode off, and go on', 'step off'],
    ['t ? o d', 'as anywhere on the agent screen (t takes the debugger at once: the agent already waits)'],
  ],
  command: [
    ['y', 'run it, this once'],
    ['a', 'allow every shell command this session'],
    ['e', 'deny it, with a reason you type'],
    ['Esc', 'deny it (the agent goes on)'],
    ['x', 'stop the agent and evaluate what it has (asks first)'],
  ],
  /** Every text field: the start screen's search, a denied command's reason, the pdb line. */
  field: [
    ['← → Ctrl+A Ctrl+E', 'move in the line; to its start / end'],
    ['Ctrl+U Ctrl+W', 'delete to the start of the line / the word before the cursor'],
    [
      'paste',
      'pasted text goes in as typed; tabs become spaces; pasted newlines stay in a message, are spaces in a one-line field',
    ],
    ['Alt+Enter Ctrl+J', 'a new line in a message to the agent (↑ ↓ move between its lines)'],
  ],
  result: [
    ['a', 'apply the patch to the checkout (asks first; twice if the run failed)', 'apply'],
    ['1-9', "a plan's result: choose the targets whose code a applies (the passed ones at first)", 'choose'],
    ['r', 'reject it', 'reject'],
    ['s', 'save the patch to tenet-<session>.patch', 'save'],
    ['q', 'quit (the patch stays in the session)', 'quit'],
    ['k', "keep the agent's tests (TDD: writes them beside the repository's tests; asks first)", 'keep tests'],
    ['↑ ↓ PgUp PgDn', 'scroll (the diff, or the list of tests)', 'scroll'],
    ['t', 'show every test / the diff', 'tests'],
    [
      'Enter',
      'show how a failed test failed (traceback and assertion: the first from the diff, the highlighted one in the tests)',
      'failure',
    ],
  ],
  replay: [
    ['space', 'play / pause'],
    ['→ ←', "step forward / back (THM's progress through the tests is one step)", 'step'],
    ['Home End', 'go to the start / the end', 'ends'],
    ['g', 'go to an event: type its number, Enter (the numbers of the status line, fork --at and the page)', 'go to'],
    ['+ -', 'faster / slower', 'speed'],
    ['n N', 'next / previous tool call', 'tool call'],
    ['t T', 'next / previous test run', 'test run'],
    [
      'r R',
      'next / previous stage (THM review, pre-generation, validation, refinement attempt, TDD round, evaluation)',
      'stage',
    ],
    ['o v', 'earlier outputs, the test file (as live)', 'view'],
    ['f', 'fork the session here: a new session whose history is this one up to this event, then goes on live', 'fork'],
    ['q', 'back'],
  ],
  sessions: [
    ['↑ ↓', 'move'],
    ['PgUp PgDn', 'move a page', 'page'],
    ['Home End', 'go to the first / last session', 'ends'],
    ['Enter', 'replay the session', 'replay'],
    ['r', 'resume an interrupted session (live, with its model)', 'resume'],
    ['f', 'fork the session from before its last model call (in a replay: from any event)', 'fork'],
    ['q', 'quit'],
  ],
  global: [['?', 'show these keys']],
  /** A live session: the first Ctrl+C only warns, so a session is not lost to a stray key. */
  quitLive: [['Ctrl+C twice', 'quit (the session is saved)']],
  /** Browsing (start screen, sessions, replay): nothing to lose, one Ctrl+C quits. */
  quitOnce: [['Ctrl+C', 'quit']],
} as const satisfies Record<string, readonly (readonly [string, string] | readonly [string, string, string])[]>;

export type KeyScreen = keyof typeof KEYS;

/** How a live session quits, for a footer with room to spare (the full words are in `?`). */
export const QUIT_LIVE_HINT = 'Ctrl+C twice quits';

/** What a `q` (or an Esc with nothing to take back) says in a live session, where it does not quit. */
export const QUIT_LIVE_NOTICE = 'Ctrl+C twice quits (the session is saved and can be resumed)';

type Entry = readonly [string, string] | readonly [string, string, string];

const entries = (screen: KeyScreen): readonly Entry[] => KEYS[screen];

/** A footer line: `key label · key label`. */
export function keyHint(screen: KeyScreen, only?: readonly string[]): string {
  return entries(screen)
    .filter(([key]) => !only || only.includes(key))
    .map(([key, label]) => `${key} ${label.split(' (')[0]}`)
    .join(' · ');
}

/** A key and its two labels: the long one (up to a parenthesis) and the short one. */
export interface KeyLabel {
  key: string;
  long: string;
  short: string;
}

/** Each entry of a screen (those not skipped) as a key and its labels. */
export function keyLabels(screen: KeyScreen, skip: readonly string[] = []): KeyLabel[] {
  return entries(screen)
    .filter(([key]) => !skip.includes(key))
    .map((entry) => ({ key: entry[0], long: entry[1].split(' (')[0]!, short: entry[2] ?? entry[1].split(' (')[0]! }));
}

/**
 * Key hints in rows of `width` columns: with their long labels if they fit in `maxRows`, else with
 * their short ones. A key is never cut or dropped: the words are shortened, and if the short ones
 * still need more rows, the hints take them (every screen counts the rows it is given back). `extra`
 * parts go last (how to quit), and are left out before a key is.
 */
export function fitHints(
  labels: readonly KeyLabel[],
  width: number,
  maxRows: number,
  extra: readonly string[] = [],
): string[] {
  const long = pack([...labels.map((l) => `${l.key} ${l.long}`), ...extra], width);
  if (long.length <= maxRows) return long;
  const short = labels.map((l) => `${l.key} ${l.short}`);
  const withExtra = pack([...short, ...extra], width);
  if (withExtra.length <= maxRows || !extra.length) return withExtra;
  const without = pack(short, width);
  return without.length < withExtra.length ? without : withExtra;
}

/**
 * A footer's rows at `width`: the long labels if they fit in `maxRows`, else the short ones (the
 * rest is one `?` away, which the footer always names first). Every key of the screen is there
 * (see fitHints); `help: false` where `?` is not a key (the pdb line takes every character).
 */
export function hintRows(
  screen: KeyScreen,
  width: number,
  maxRows = 2,
  extra: readonly string[] = [],
  skip: readonly string[] = [],
  help = true,
): string[] {
  const labels = [...(help ? [{ key: '?', long: 'keys', short: 'keys' }] : []), ...keyLabels(screen, skip)];
  const long = pack(
    [...labels.slice(help ? 1 : 0).map((l) => `${l.key} ${l.long}`), ...extra, ...(help ? ['? keys'] : [])],
    width,
  );
  if (long.length <= maxRows) return long;
  return fitHints(labels, width, maxRows, extra);
}
