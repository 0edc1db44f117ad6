import type { Key } from 'ink';
import { JUMP_WORDS, JUMPS, stepSpeed, type ReplayCursor } from './replay';

/** Where a replay stands and how it moves: what its keys change. */
export interface ReplayNav {
  /** The position: how many events are shown. */
  at: number;
  playing: boolean;
  speed: number;
  /** `g`: the event number being typed, until Enter or Esc. */
  goto?: string;
  /** What the last key could not do (no later tool call, no such event), until the next key. */
  notice?: string;
}

/** A key's effect: the new state, and whether it asks to leave the replay or to open the help (`?`) or the fork question (`f`). */
export interface ReplayKeyResult {
  nav: ReplayNav;
  back?: boolean;
  open?: 'help' | 'fork';
}

const paused = (nav: ReplayNav, at: number): ReplayNav => ({ at, playing: false, speed: nav.speed });

/**
 * The replay's keys as a pure reducer (tested without rendering; the screen keeps the state in a
 * ref, so a burst of keys between frames moves from where the key before left it): space plays
 * and pauses, → ← step, Home End go to the ends, `g` and a number go to that event, `n t r` jump
 * to the next tool call, test run or stage and `N T R` to the one before, `+ -` change speed,
 * `q` and Esc leave; `?` and `f` ask for the help and the fork question. Undefined for a key that
 * is not one of these.
 */
export function replayKey(nav: ReplayNav, input: string, key: Key, cursor: ReplayCursor): ReplayKeyResult | undefined {
  const state: ReplayNav = {
    at: nav.at,
    playing: nav.playing,
    speed: nav.speed,
    ...(nav.goto !== undefined ? { goto: nav.goto } : {}),
  };
  if (state.goto !== undefined) return { nav: gotoKey(state, input, key, cursor) };
  if (input === '?') return { nav: state, open: 'help' };
  if (input === 'f') return { nav: state, open: 'fork' };
  const jump = input.toLowerCase();
  if (input === ' ') {
    // At the end nothing plays, whatever the state says; space plays from the start again.
    const playing = state.playing && state.at < cursor.length;
    const restart = !playing && state.at >= cursor.length;
    return { nav: { ...state, at: restart ? 0 : state.at, playing: !playing } };
  }
  if (key.rightArrow) return { nav: paused(state, cursor.nextStop(state.at)) };
  if (key.leftArrow) return { nav: paused(state, cursor.previousStop(state.at)) };
  if (key.home) return { nav: paused(state, 0) };
  if (key.end) return { nav: paused(state, cursor.length) };
  if (input === '+' || input === '-')
    return { nav: { ...state, speed: stepSpeed(state.speed, input === '+' ? 1 : -1) } };
  if (input === 'g') return { nav: { ...paused(state, state.at), goto: '' } };
  if (input.length === 1 && jump in JUMPS) {
    const name = jump as keyof typeof JUMPS;
    const back = input !== jump;
    const to = back ? cursor.previous(state.at, JUMPS[name]) : cursor.next(state.at, JUMPS[name]);
    if (to === undefined)
      return { nav: { ...paused(state, state.at), notice: `no ${back ? 'earlier' : 'later'} ${JUMP_WORDS[name]}` } };
    return { nav: paused(state, to) };
  }
  if (input === 'q' || key.escape) return { nav: state, back: true };
  return undefined;
}

/** A key while `g` waits for an event number: digits, Backspace, Enter goes, Esc gives up. */
function gotoKey(state: ReplayNav, input: string, key: Key, cursor: ReplayCursor): ReplayNav {
  const typed = state.goto ?? '';
  const { goto: _, ...rest } = state;
  if (key.escape) return rest;
  if (key.backspace || key.delete) return { ...rest, goto: typed.slice(0, -1) };
  if (key.return) {
    if (!typed) return rest;
    const at = cursor.positionOf(Number(typed));
    if (at === undefined)
      return {
        ...rest,
        notice: `no event ${typed}: this session's events are ${cursor.eventAt(1)} to ${cursor.eventAt(cursor.length)}`,
      };
    return { ...rest, at };
  }
  const digits = input.replace(/\D/g, '');
  return { ...rest, goto: (typed + digits).slice(0, 9) };
}

const NO_KEY: Key = {
  upArrow: false,
  downArrow: false,
  leftArrow: false,
  rightArrow: false,
  pageDown: false,
  pageUp: false,
  home: false,
  end: false,
  return: false,
  escape: false,
  ctrl: false,
  shift: false,
  tab: false,
  backspace: false,
  delete: false,
  meta: false,
  super: false,
  hyper: false,
  capsLock: false,
  numLock: false,
};

/**
 * Keys typed faster than the terminal is read come as one chunk (`g62\r`): each goes through
 * `replayKey` in turn, a newline as Enter and DEL as Backspace, up to one that leaves or opens
 * something (the keys after it are not the replay's). A single key is `replayKey` itself.
 */
export function replayInput(
  nav: ReplayNav,
  input: string,
  key: Key,
  cursor: ReplayCursor,
): ReplayKeyResult | undefined {
  const chars = Array.from(input);
  if (chars.length <= 1) return replayKey(nav, input, key, cursor);
  let result: ReplayKeyResult | undefined;
  for (const char of chars) {
    const named: Key = {
      ...NO_KEY,
      return: char === '\r' || char === '\n',
      backspace: char === '\x7f' || char === '\b',
    };
    const step = replayKey(result?.nav ?? nav, named.return || named.backspace ? '' : char, named, cursor);
    if (!step) continue;
    result = step;
    if (step.back || step.open) break;
  }
  return result;
}
