import { describeFailure, describeTestQuality } from '../engine/quality/describe';
import { condensedWords } from '../engine/agent/context-words';
import { instructionsWords } from '../engine/task/project-instructions';
import { type EngineEvent, type EventHandlers, handleEvent } from '../engine/events';
import {
  addedWords,
  approvalWords,
  capitalized,
  failingWords,
  forkWords,
  limitWords,
  resumedWords,
  costText,
  hiddenWords,
  MESSAGE_SOURCES,
  modeName,
  otherFailureWords,
  phaseWords,
  planEndWords,
  planFinalWords,
  planTargetWords,
  planWords,
  planTargetName,
  targetVerdictLines,
  stoppedWords,
  TEST_RUNS,
  verdictLabel,
  tokensInOut,
} from '../engine/phrase-book';
import { failingTestCounts } from '../engine/protocol/thm-report';
import type { SessionConfig } from '../engine/protocol/settings';
import { sandboxWords } from '../engine/sandbox/sandbox-spec';
import { plural } from '../engine/util/plural';

/** Tests failing for another reason named under THM's line; the rest are counted. */
const OTHERS_SHOWN = 5;

const firstLine = (text: string, max = 140) => {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
};

/**
 * Headless text output of `tenet run`: one line per step worth seeing (the TUI shows more).
 * `--json` prints the events themselves instead.
 */
export function textPrinter(write: (line: string) => void): (event: EngineEvent) => void {
  let streaming = false;
  let config: SessionConfig | undefined;
  const endStream = () => {
    if (streaming) write('\n');
    streaming = false;
  };
  const lines: EventHandlers = {
    'session.start': (event) => {
      config = event.config;
      write(
        `tenet · ${event.target} (${modeName(event.mode)}) · strategy ${event.strategy} · session ${event.sessionId}\n`,
      );
      write(`model: ${event.modelLabel}\n`);
      write(`sandbox: ${sandboxWords(event.config.sandbox)}\n`);
      if (typeof event.config.instructions === 'object')
        write(`instructions: ${instructionsWords(event.config.instructions)}\n`);
    },
    'thm.report': (event) => {
      const c = event.report.counts;
      const others = event.report.otherFailures ?? [];
      write(
        `THM: ${plural(c.collected, 'test')} · ${failingWords(failingTestCounts(event.report), { alwaysUnreached: true })}${others.length ? ` · ${otherFailureWords(event.report)}` : ''} · ${plural(event.report.clusters.length, 'cluster')} · ${(event.report.durationMs / 1000).toFixed(1)} s\n`,
      );
      // Stub mode: tests that fail without the target are named, so a developer sees why they do not count.
      if (others.length) {
        write("  failing for another reason (not the target's tests; left out of the verdict):\n");
        for (const test of others.slice(0, OTHERS_SHOWN)) write(`    ${test.nodeid}: ${stoppedWords(test)}\n`);
        if (others.length > OTHERS_SHOWN)
          write(`    … and ${others.length - OTHERS_SHOWN} more (tenet thm lists them)\n`);
      }
    },
    'thm.approval': (event) => {
      if (!event.chosen.length) write(`tests the agent sees: ${approvalWords(event, config)}\n`);
      else
        write(
          `tests the agent sees (${approvalWords(event, config)}):\n${event.chosen.map((t) => `  ★ ${t}`).join('\n')}\n`,
        );
    },
    'limit.reached': (event) => {
      endStream();
      write(`  ! ${limitWords(event)}\n`);
    },
    'session.forked': (event) => {
      write(`${forkWords(event)}\n`);
    },
    'session.resumed': (event) => {
      write(`tenet · ${resumedWords(event)}\n`);
    },
    'tests.added': (event) => {
      write(`${addedWords(event)}\n`);
      for (const test of event.accepted) write(`  + ${test.nodeid}\n`);
      for (const { nodeid, reason } of event.rejected) write(`  ✗ ${nodeid}: ${reason}\n`);
      for (const id of event.removed) write(`  − ${id} (no longer fails)\n`);
    },
    'tests.hidden': (event) => {
      write(`${hiddenWords(event)}\n`);
    },
    'agent.phase': (event) => {
      endStream();
      const words = phaseWords(event);
      if (words) write(`${words.title}${words.detail ? ` · ${words.detail}` : ''}\n`);
    },
    'model.delta': (event) => {
      if (!streaming) write('  model: ');
      streaming = true;
      write(event.text.replace(/\n/g, '\n         '));
    },
    'developer.message': (event) => {
      endStream();
      write(
        `  developer → model${MESSAGE_SOURCES[event.via] ? ` (${MESSAGE_SOURCES[event.via]})` : ''}: ${firstLine(event.text)}${event.text.includes('\n') ? ' …' : ''}\n`,
      );
    },
    'model.retry': (event) => {
      endStream();
      write(
        `  ! model call failed (${event.reason}); retry ${event.attempt}/${event.maxAttempts - 1} in ${(event.delayMs / 1000).toFixed(1)} s\n`,
      );
    },
    'model.response': () => {
      endStream();
    },
    'tool.call': (event) => {
      endStream();
      write(`  → ${event.name} ${firstLine(event.arguments, 100)}\n`);
    },
    'tool.edit': (event) => {
      write(`    ✎ the developer changed the arguments: ${firstLine(event.arguments, 100)}\n`);
    },
    'tool.result': (event) => {
      // A failed call's line whole: it says what was wrong (an unknown tool's list of the tools, submit_* at its end).
      write(`    ${event.ok ? '✓' : '✗'} ${firstLine(event.text, event.ok ? undefined : Infinity)}\n`);
    },
    'tests.run': (event) => {
      endStream();
      write(`  ${TEST_RUNS[event.purpose]}: ${event.passed}/${event.total} passed\n`);
    },
    warning: (event) => {
      endStream();
      write(`  ! ${event.message}\n`);
    },
    'context.condensed': (event) => {
      endStream();
      write(`  ${condensedWords(event)}\n`);
    },
    plan: (event) => {
      write(`${planWords(event)}\n`);
      for (const line of event.why) write(`  ${line}\n`);
    },
    'plan.target': (event) => {
      endStream();
      write(`\n── ${planTargetWords(event)} ──\n`);
    },
    'plan.target.end': (event) => {
      endStream();
      write(`${event.after ? '  ⏎ ' : '  '}${planEndWords(event)}\n`);
    },
    'plan.final': (event) => {
      endStream();
      write(`\n${capitalized(planFinalWords(event))}\n`);
    },
    'patch.decision': (event) => {
      // A refusal was just printed as a warning (it says why); a patch that went in is news too.
      if (event.applied && event.targets)
        write(`  patch applied to the checkout: ${event.targets.map(planTargetName).join(', ')}\n`);
      else if (event.applied) write('  patch applied to the checkout\n');
      else if (event.file) write(`  patch saved to ${event.file}\n`);
    },
    result: (event) => {
      endStream();
      const u = event.usage;
      write(
        `${verdictLabel(event)} · selected ${event.selectedTests.passed}/${event.selectedTests.total} · hidden ${event.hiddenTests.passed}/${event.hiddenTests.total}` +
          ` · ${tokensInOut(u)} · ${plural(u.modelCalls, 'model call')} · ${plural(u.toolCalls, 'tool call')} · ${costText(event.costUsd, event.cacheSavedUsd)} · ${(event.wallMs / 1000).toFixed(1)} s\n`,
      );
      write(`sandbox: ${sandboxWords(config?.sandbox)}\n`);
      for (const line of targetVerdictLines(event.targets ?? [])) write(`  ${line}\n`);
      if (event.testQuality) write(`${describeTestQuality(event.testQuality)}\n`);
      if (event.failure) for (const line of describeFailure(event.failure)) write(`${line}\n`);
      for (const warning of event.patchSecrets ?? []) write(`! ${warning}\n`);
      // As the TUI says it: with --apply, nothing was applied because there was nothing to apply.
      write(event.patch ? `\n${event.patch}` : 'No change to the target: no patch.\n');
    },
    // One line per step worth seeing: THM's progress is the progress line's (its report is
    // printed), the debugger's exchanges and the submissions are the tool calls' lines, a
    // billed call without an answer has its warning, a command's approval was asked on the
    // terminal, and an error is printed by the command that failed (stderr), not here.
    'thm.start': 'ignored',
    'thm.phase': 'ignored',
    'thm.collected': 'ignored',
    'thm.collecting': 'ignored',
    'thm.running': 'ignored',
    'thm.test': 'ignored',
    'index.ready': 'ignored',
    'model.request': 'ignored',
    'model.tool-delta': 'ignored',
    'model.unanswered': 'ignored',
    'step.pause': 'ignored',
    'debugger.input': 'ignored',
    'debugger.output': 'ignored',
    'debugger.entry': 'ignored',
    submission: 'ignored',
    'tests.submission': 'ignored',
    'tests.kept': 'ignored',
    'command.approval': 'ignored',
    'session.interrupted': 'ignored',
    error: 'ignored',
  };
  return (event) => {
    handleEvent(lines, event);
  };
}
