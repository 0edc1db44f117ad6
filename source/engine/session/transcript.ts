import { condensedWords } from '../agent/context-words';
import { instructionsWords } from '../task/project-instructions';
import { prettyArguments } from '../agent/preview';
import { shownArgs } from '../util/shown-args';
import { type EngineEvent, type EventHandlers, handleEvent } from '../events';
import { codeEdit } from './code-edit';
import {
  addedWords,
  approvalWords,
  capitalized,
  forkWords,
  resumedWords,
  limitWords,
  COMMAND_DECISIONS,
  costText,
  hiddenWords,
  MESSAGE_SOURCES,
  modeName,
  otherFailureWords,
  overridden,
  pauseWords,
  phaseHeading,
  planEndWords,
  planFinalWords,
  planTargetWords,
  planWords,
  targetVerdictLines,
  TEST_RUNS,
  tokensInOut,
  verdictLabel,
  WRITERS,
} from '../phrase-book';
import type { SessionConfig } from '../protocol/settings';
import { describeFailure, describeTestQuality } from '../quality/describe';
import { plural } from '../util/plural';

const MAX_LINES = 40;

function clip(text: string, lines = MAX_LINES): string {
  const all = text.replace(/\s+$/, '').split('\n');
  return all.length > lines
    ? [...all.slice(0, lines), `… (${all.length - lines} more lines)`].join('\n')
    : all.join('\n');
}

const fence = (text: string, lang = '') => {
  const ticks = text.includes('```') ? '````' : '```';
  return `${ticks}${lang}\n${text}\n${ticks}`;
};

const quote = (text: string) =>
  text
    .split('\n')
    .map((l) => `> ${l}`)
    .join('\n');

/**
 * A session as Markdown: what `tenet show` prints and `tenet export --format md` writes. Long
 * outputs are clipped; the JSON export keeps everything.
 */
export function markdownTranscript(id: string, events: readonly EngineEvent[]): string {
  const out: string[] = [`# tenet session ${id}`];
  let config: SessionConfig | undefined;
  const sections: EventHandlers = {
    'session.start': (event) => {
      config = event.config;
      out.push(
        [
          `- target: \`${event.target}\` (${modeName(event.mode)})`,
          `- repository: \`${event.repo}\``,
          `- strategy: ${event.strategy}`,
          `- model: ${event.modelLabel}`,
          ...(typeof event.config.instructions === 'object'
            ? [`- instructions: ${instructionsWords(event.config.instructions)}`]
            : event.config.instructions === 'off'
              ? ['- instructions: left out (--no-project-instructions)']
              : []),
        ].join('\n'),
      );
    },
    'thm.report': (event) => {
      const r = event.report;
      // "in scope" means little without the pytest arguments THM ran with (read with care: a session on disk may come from any version).
      const args = r.testArgs?.length ? ` (\`--tests ${shownArgs(r.testArgs)}\`)` : '';
      out.push(
        `## Test Harness Mechanism\n\n${plural(r.counts.collected, 'test')} in scope${args}, ${r.counts.failing} failing (${r.counts.unreached} without reaching the target)${r.otherFailures?.length ? `, ${otherFailureWords(r)}` : ''}, ${r.clusters.length} clusters, ${(r.durationMs / 1000).toFixed(1)} s.`,
      );
      out.push(
        r.clusters
          .map(
            (c) =>
              `- caller \`${c.caller}\`: ${c.tests.length} test${c.tests.length === 1 ? '' : 's'}, shortest chain ${c.depth}`,
          )
          .join('\n'),
      );
    },
    'thm.approval': (event) => {
      const words = approvalWords(event, config);
      const changed = event.by === 'human' && overridden(event);
      out.push(
        (event.chosen.length
          ? `Tests given to the agent (${words}):\n\n${event.chosen.map((t) => `- \`${t}\``).join('\n')}`
          : `Tests given to the agent: ${words}.`) +
          (changed ? `\n\nProposed: ${event.proposed.map((t) => `\`${t}\``).join(', ')}` : ''),
      );
    },
    'tests.added': (event) => {
      out.push(
        [
          `**${capitalized(addedWords(event))}.**`,
          ...event.accepted.map((t) => `- joined: \`${t.nodeid}\``),
          ...event.rejected.map((r) => `- kept out: \`${r.nodeid}\`: ${r.reason}`),
          ...event.removed.map((id) => `- no longer counted: \`${id}\``),
          ...event.files.map((f) => `\n\`${f.path}\`:\n\n${fence(clip(f.content, 80), 'python')}`),
        ].join('\n'),
      );
    },
    'tests.hidden': (event) => {
      out.push(`${capitalized(hiddenWords(event))}.`);
    },
    'agent.phase': (event) => {
      const heading = phaseHeading(event);
      if (heading) out.push(`## ${heading}`);
    },
    'developer.message': (event) => {
      out.push(
        `**The developer** wrote to the model (with request ${event.round}${MESSAGE_SOURCES[event.via] ? `, ${MESSAGE_SOURCES[event.via]}` : ''}):\n\n${quote(event.text)}`,
      );
    },
    'model.response': (event) => {
      out.push(
        `**Model** · ${tokensInOut(event.usage)}${event.costUsd ? ` · ${costText(event.costUsd, event.cacheSavedUsd)}` : ''}${event.content ? `\n\n${quote(event.content)}` : ''}`,
      );
    },
    'model.retry': (event) => {
      out.push(`_The model call failed (${event.reason}); retried._`);
    },
    'model.unanswered': (event) => {
      out.push(
        `_${event.reason === 'cancelled' ? 'The model call was cancelled' : 'The model call got no answer'}; what it used was billed all the same: ${tokensInOut(event.usage)}${event.usage.estimated ? ' (estimated)' : ''}${event.costUsd ? ` · ${costText(event.costUsd, event.cacheSavedUsd)}` : ''}._`,
      );
    },
    'tool.call': (event) => {
      out.push(`**Tool** \`${event.name}\`\n\n${fence(clip(prettyArguments(event.arguments)), 'json')}`);
    },
    'tool.edit': (event) => {
      // A submission's code edited: what the developer changed of the model's, as a diff.
      const edit = codeEdit(event.original, event.arguments);
      out.push(
        edit
          ? `_The developer changed the code before it ran (+${edit.added} −${edit.removed} against the model's):_\n\n${fence(clip(edit.diff), 'diff')}`
          : `_The developer changed the arguments before it ran; it ran with:_\n\n${fence(clip(prettyArguments(event.arguments)), 'json')}`,
      );
    },
    'step.pause': (event) => {
      out.push(`_Step mode: paused ${pauseWords(event)}._`);
    },
    'tool.result': (event) => {
      out.push(`${event.ok ? 'Result' : 'Error'} (${event.durationMs} ms):\n\n${fence(clip(event.text))}`);
    },
    'debugger.entry': (event) => {
      out.push(`_Debugger, ${WRITERS[event.entry.who]} (${event.entry.mode}):_ \`${event.entry.input}\``);
    },
    'tests.run': (event) => {
      out.push(
        `**${TEST_RUNS[event.purpose]}**: ${event.passed}/${event.total} passed\n\n<details><summary>report</summary>\n\n${fence(clip(event.report, 80))}\n\n</details>`,
      );
    },
    warning: (event) => {
      out.push(`> **Warning:** ${event.message}`);
    },
    'context.condensed': (event) => {
      out.push(`_${condensedWords(event)}._`);
    },
    'command.approval': (event) => {
      out.push(
        `_Shell command \`${event.command}\` ${COMMAND_DECISIONS[event.decision]} ${event.by === 'auto' ? 'automatically' : 'by the developer'}${event.reason ? `: ${event.reason}` : ''}._`,
      );
    },
    'patch.decision': (event) => {
      out.push(
        `_Patch: ${event.decision}; ${event.applied ? 'applied to the checkout' : event.file ? `saved to ${event.file}` : 'not applied'}${event.reason ? ` (${event.reason})` : ''}._`,
      );
    },
    'session.interrupted': (event) => {
      out.push(`_Interrupted: ${event.reason}._`);
    },
    'limit.reached': (event) => {
      out.push(`> **Stopped:** ${capitalized(limitWords(event))}.`);
    },
    'session.forked': (event) => {
      out.push(`_${capitalized(forkWords(event))}._`);
    },
    'session.resumed': (event) => {
      out.push(`_${capitalized(resumedWords(event))}._`);
    },
    result: (event) => {
      out.push(
        `## Result: ${verdictLabel(event)}\n\n` +
          `- selected tests ${event.selectedTests.passed}/${event.selectedTests.total}, hidden tests ${event.hiddenTests.passed}/${event.hiddenTests.total}\n` +
          `- ${tokensInOut(event.usage)}; ${plural(event.usage.modelCalls, 'model call')}, ${plural(event.usage.toolCalls, 'tool call')}; ${costText(event.costUsd, event.cacheSavedUsd)}; ${(event.wallMs / 1000).toFixed(1)} s` +
          targetVerdictLines(event.targets ?? [])
            .map((line) => `\n- ${line}`)
            .join('') +
          (event.testQuality ? `\n- ${describeTestQuality(event.testQuality)}` : '') +
          (event.failure
            ? describeFailure(event.failure)
                .map((line) => `\n- ${line}`)
                .join('')
            : '') +
          (event.patchSecrets ?? []).map((warning) => `\n- ${warning}`).join('') +
          (event.patch ? `\n\n${fence(event.patch, 'diff')}` : ''),
      );
    },
    error: (event) => {
      out.push(`> **Error:** ${event.message}${event.fix ? ` — fix: ${event.fix}` : ''}`);
    },
    plan: (event) => {
      out.push(
        [
          `## Plan\n\n${capitalized(planWords(event))}.`,
          ...event.targets.map(
            (t) =>
              `- \`${t.target}\`: \`${t.signature}\`${t.summary ? ` (${t.summary})` : ''}; ${plural(t.reaches.length, 'test')} reach it by the call graph`,
          ),
          ...event.why.map((line) => `\n_${capitalized(line)}._`),
        ].join('\n'),
      );
    },
    'plan.target': (event) => {
      out.push(`# ${capitalized(planTargetWords(event))}`);
    },
    'plan.target.end': (event) => {
      out.push(`**${capitalized(planEndWords(event))}.**`);
    },
    'plan.final': (event) => {
      out.push(`# ${capitalized(planFinalWords(event))}`);
    },
    'tests.kept': (event) => {
      out.push(`_The agent's tests were kept in the checkout: \`${event.file}\`._`);
    },
    // THM's progress (its report says what came of it), the model's stream (its response has it
    // whole), the debugger's raw input and output (each entry has both).
    'thm.start': 'ignored',
    'thm.phase': 'ignored',
    'thm.collected': 'ignored',
    'thm.collecting': 'ignored',
    'thm.running': 'ignored',
    'thm.test': 'ignored',
    'index.ready': 'ignored',
    'model.request': 'ignored',
    'model.delta': 'ignored',
    'model.tool-delta': 'ignored',
    'debugger.input': 'ignored',
    'debugger.output': 'ignored',
    // The code and the tests as submitted are the submit tool call's arguments, shown with it.
    submission: 'ignored',
    'tests.submission': 'ignored',
  };
  for (const event of events) handleEvent(sections, event);
  return `${out.join('\n\n')}\n`;
}
