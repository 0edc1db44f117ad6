import { capitalized, forkWords, limitWords, resumedWords } from '../../engine/phrase-book';
import { sandboxWords } from '../../engine/sandbox/sandbox-spec';
import { instructionsWords } from '../../engine/task/project-instructions';
import { debuggerText } from './debugger-events';
import { push } from './items';
import type { ViewHandlers } from './types';

/** The pane's line where a resumed session's debugger starts: the lines above were the stopped session's. */
export const RESUMED_DEBUGGER = '── the session was resumed: the debugger session above is gone; a new one starts ──';

/**
 * The session's own course: its start, a fork or a resume, warnings and errors, a limit reached,
 * an interruption, and how it ended (the result, the patch, the agent's tests kept).
 */
export const SESSION_EVENTS = {
  'session.start': (event, state) => {
    state.session = {
      id: event.sessionId,
      target: event.target,
      mode: event.mode,
      strategy: event.strategy,
      modelLabel: event.modelLabel,
      provider: event.provider,
      repo: event.repo,
      sandbox: sandboxWords(event.config.sandbox),
      ...(event.config.limits ? { limits: event.config.limits } : {}),
    };
    // Said at the start, as the headless run says it: what of the repository's own the model reads.
    if (typeof event.config.instructions === 'object')
      push(state, {
        kind: 'note',
        text: `Instructions: ${instructionsWords(event.config.instructions)} (the repository's, in the system prompt)`,
        tone: 'info',
      });
  },
  'session.forked': (event, state) => {
    state.fork = { recorded: event.recorded, live: `${event.provider}/${event.model}` };
    push(state, { kind: 'note', text: capitalized(forkWords(event)), tone: 'info' });
  },
  'session.resumed': (event, state) => {
    // The stopped session's debugger ended with it (its command too): the pane says where, and the
    // resumed session starts a new one (its mode is not known until it answers).
    state.debugger.running = undefined;
    if (state.debugger.lines.length) {
      debuggerText(state, [{ who: 'output', text: RESUMED_DEBUGGER }]);
      state.debugger.mode = null;
    }
    push(state, { kind: 'note', text: capitalized(resumedWords(event)), tone: 'info' });
  },
  'session.interrupted': (event, state) => {
    push(state, { kind: 'note', text: `Interrupted: ${event.reason}`, tone: 'warning' });
  },
  warning: (event, state) => {
    state.warnings = [...state.warnings, event.message];
    push(state, { kind: 'note', text: event.message, tone: 'warning' });
  },
  error: (event, state) => {
    state.agent.call = undefined;
    state.warnings = [...state.warnings, event.message];
    push(state, {
      kind: 'note',
      text: `Error: ${event.message}${event.fix ? ` — fix: ${event.fix}` : ''}`,
      tone: 'warning',
    });
  },
  'limit.reached': (event, state) => {
    push(state, { kind: 'note', text: capitalized(limitWords(event)), tone: 'warning' });
  },
  result: (event, state) => {
    state.agent.call = undefined;
    state.result = event;
    state.agent.phase = 'done';
  },
  'patch.decision': (event, state) => {
    state.patch = {
      decision: event.decision,
      applied: event.applied,
      ...(event.reason ? { reason: event.reason } : {}),
      ...(event.file ? { file: event.file } : {}),
    };
  },
  'tests.kept': (event, state) => {
    state.keptTests = event.file;
  },
} satisfies Partial<ViewHandlers>;
