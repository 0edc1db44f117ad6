import type { Key } from 'ink';
import { useReducer, useRef } from 'react';

/** A target and its mode, or the scripted demo (`d`, when no model is configured). */
export type StartChoice = { target: string; blank: boolean } | { demo: true };

/** Which model answers (its label), or why none can (what to set): loaded after the first frame. */
/** Which model answers, or why none can; and where the session's Python will run, in words. */
export type ModelLine = ({ label: string; note?: string } | { problem: string }) & { sandbox?: string };

/** A mode that would doom the session, and the one to offer instead. */
export interface Mismatch {
  target: string;
  blank: boolean;
  lines: string[];
  question: string;
}

/** Everything the start screen shows and its keys change, in one value (see reduceStart). */
export interface StartState {
  /** The repository's functions; undefined while the index is built. */
  functions?: string[];
  indexError?: string;
  /** Undefined while the config and providers load. */
  model?: ModelLine;
  query: string;
  cursor: number;
  blank: boolean;
  help: boolean;
  notice?: { text: string; tone: 'error' | 'info' };
  /** A better mode for the chosen target, asked about (y/N). */
  offer?: Mismatch;
  /** A target's body is being checked: Enter waits for it. */
  checking: boolean;
  /** The choice is made: the screen draws an empty frame, then hands it over. */
  picked?: StartChoice;
}

export type StartAction =
  | { type: 'functions'; list: string[] }
  | { type: 'index-failed'; message: string }
  | { type: 'model'; line: ModelLine }
  | { type: 'query'; value: string }
  | { type: 'move'; by: number }
  | { type: 'move-to'; to: 'first' | 'last' }
  | { type: 'toggle-mode' }
  | { type: 'help'; open: boolean }
  | { type: 'notice'; notice?: StartState['notice'] }
  | { type: 'checking'; on: boolean }
  | { type: 'offer'; offer?: Mismatch }
  | { type: 'pick'; choice: StartChoice };

export const initialStart = (functions: string[] | undefined, model: ModelLine | undefined): StartState => ({
  ...(functions ? { functions } : {}),
  ...(model ? { model } : {}),
  query: '',
  cursor: 0,
  blank: false,
  help: false,
  checking: false,
});

/** The functions the search matches: every word of it, in any order, case aside. */
export function matching(functions: readonly string[] | undefined, search: string): string[] {
  const words = search.toLowerCase().split(/\s+/).filter(Boolean);
  return (functions ?? []).filter((f) => words.every((w) => f.toLowerCase().includes(w)));
}

/** The start screen's reducer: pure, so a burst of keys applies each to what the one before left. */
export function reduceStart(state: StartState, action: StartAction): StartState {
  switch (action.type) {
    case 'functions':
      return { ...state, functions: action.list };
    case 'index-failed':
      return { ...state, indexError: action.message };
    case 'model':
      return { ...state, model: action.line };
    case 'query': {
      const { notice: _, ...rest } = state;
      return { ...rest, query: action.value, cursor: 0 };
    }
    case 'move': {
      const count = matching(state.functions, state.query).length;
      return { ...state, cursor: Math.max(0, Math.min(count - 1, state.cursor + action.by)) };
    }
    case 'move-to': {
      const count = matching(state.functions, state.query).length;
      return { ...state, cursor: action.to === 'first' ? 0 : Math.max(0, count - 1) };
    }
    case 'toggle-mode':
      return { ...state, blank: !state.blank };
    case 'help':
      return { ...state, help: action.open };
    case 'notice': {
      const { notice: _, ...rest } = state;
      return action.notice ? { ...rest, notice: action.notice } : rest;
    }
    case 'checking':
      return { ...state, checking: action.on };
    case 'offer': {
      const { offer: _, ...rest } = state;
      return action.offer ? { ...rest, offer: action.offer } : rest;
    }
    case 'pick':
      return { ...state, picked: action.choice };
  }
}

/** What a key does besides editing the search: an action, `quit`, `clear` (the search), or nothing (the field's). */
export type StartKeyOutcome = StartAction | 'quit' | 'clear' | undefined;

type ListKey = Partial<Pick<Key, 'upArrow' | 'downArrow' | 'pageUp' | 'pageDown' | 'home' | 'end'>>;

/**
 * The list's keys: ↑ ↓ a row, PgUp PgDn a page of `page` rows, Home End its ends (in the search
 * line Ctrl+A and Ctrl+E go to its start and end). Undefined for any other key.
 */
function listKey(key: ListKey, page: number): StartAction | undefined {
  if (key.upArrow) return { type: 'move', by: -1 };
  if (key.downArrow) return { type: 'move', by: 1 };
  if (key.pageUp) return { type: 'move', by: -Math.max(1, page) };
  if (key.pageDown) return { type: 'move', by: Math.max(1, page) };
  if (key.home) return { type: 'move-to', to: 'first' };
  if (key.end) return { type: 'move-to', to: 'last' };
  return undefined;
}

/** A key while the search has the keys (a model is set). `empty`: the search is empty; `page`: the list's rows. */
export function searchKey(
  input: string,
  key: Partial<Pick<Key, 'escape' | 'tab'>> & ListKey,
  empty: boolean,
  page = 10,
): StartKeyOutcome {
  // No function name has a `?`: it is the help key here too.
  if (input === '?') return { type: 'help', open: true };
  // Esc takes back the search first; only an empty one quits.
  if (key.escape) return empty ? 'quit' : 'clear';
  if (key.tab) return { type: 'toggle-mode' };
  return listKey(key, page);
}

export const NO_MODEL_ENTER =
  'No model to run a session with: set one as said above, or press d for the scripted demo.';

/** A key without a model: the letters are keys (d the demo), not a search. */
export function noModelKey(
  input: string,
  key: Partial<Pick<Key, 'escape' | 'return'>> & ListKey,
  page = 10,
): StartKeyOutcome {
  if (input === 'd') return { type: 'pick', choice: { demo: true } };
  if (input === '?') return { type: 'help', open: true };
  if (key.escape || input === 'q') return 'quit';
  const moved = listKey(key, page);
  if (moved) return moved;
  if (key.return) return { type: 'notice', notice: { text: NO_MODEL_ENTER, tone: 'error' } };
  return undefined;
}

/**
 * The start screen's state through reduceStart. Keys can come faster than frames (↓ then Enter in
 * one chunk): `latest()` is the state after every action so far, for a handler that must read it.
 */
export function useStartState(initial: () => StartState): {
  state: StartState;
  latest(): StartState;
  dispatch(action: StartAction): void;
} {
  const [state, setState] = useReducer(reduceStart, undefined, initial);
  const live = useRef<StartState | undefined>(undefined);
  live.current ??= state;
  return {
    state,
    latest: () => live.current!,
    dispatch: (action) => {
      live.current = reduceStart(live.current!, action);
      setState(action);
    },
  };
}
