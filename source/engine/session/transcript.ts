import { condensedWords } from '../agent/context-words';
import { instructionsWords } from '../task/project-instructions';
import { prettyArguments } from '../agent/preview';
import { shownArgs } from '../util/shown-args';
import type { EngineEvent } from '../events';
import { codeEdit } from './code-edit';
import { addedWords, approvalWords, capitalized, forkWords, resumedWords, limitWords, COMMAND_DECISIONS, costText, hiddenWords, MESSAGE_SOURCES, modeName, overridden, pauseWords, phaseHeading, TEST_RUNS, tokensInOut, verdictLabel, WRITERS } from '../phrase-book';
import type { SessionConfig } from '../protocol/settings';
import { describeFailure, describeTestQuality } from '../quality/describe';
import { plural } from '../tools/format';

const MAX_LINES = 40;

function clip(text: string, lines = MAX_LINES): string {
  const all = text.replace(/\s+$/, '').split('\n');
  return all.length > lines ? [...all.slice(0, lines), `… (${all.length - lines} more lines)`].join('\n') : all.join('\n');
}

const fence = (text: string, lang = '') => {
  const ticks = text.includes('```') ? '````' : '```';
  return `${ticks}${lang}\n${text}\n${ticks}`;
};

const quote = (text: string) => text.split('\n').map((l) => `> ${l}`).join('\n');


/**
 * A session as Markdown: what `tenet show` prints and `tenet export --format md` writes. Long
 * outputs are clipped; the JSON export keeps everything.
 */
export function markdownTranscript(id: string, events: readonly EngineEvent[]): string {
  const out: string[] = [`# tenet session ${id}`];
  let config: SessionConfig | undefined;
  for (const event of events) {
    switch (event.type) {
      case 'session.start':
        config = event.config;
        out.push(
          [
            `- target: \`${event.target}\` (${modeName(event.mode)})`,
            `- repository: \`${event.repo}\``,
            `- strategy: ${event.strategy}`,
            `- model: ${event.modelLabel}`,
            ...(typeof event.config.instructions === 'object' ? [`- instructions: ${instructionsWords(event.config.instructions)}`] : event.config.instructions === 'off' ? ['- instructions: left out (--no-project-instructions)'] : []),
          ].join('\n'),
        );
        break;
      case 'thm.report': {
        const r = event.report;
        // "in scope" means little without the pytest arguments THM ran with (read with care: a session on disk may come from any version).
        const args = r.testArgs?.length ? ` (\`--tests ${shownArgs(r.testArgs)}\`)` : '';
        out.push(`## Test Harness Mechanism\n\n${plural(r.counts.collected, 'test')} in scope${args}, ${r.counts.failing} failing (${r.counts.unreached} without reaching the target), ${r.clusters.length} clusters, ${(r.durationMs / 1000).toFixed(1)} s.`);
        out.push(r.clusters.map((c) => `- caller \`${c.caller}\`: ${c.tests.length} test${c.tests.length === 1 ? '' : 's'}, shortest chain ${c.depth}`).join('\n'));
        break;
      }
      case 'thm.approval': {
        const words = approvalWords(event, config);
        const changed = event.by === 'human' && overridden(event);
        out.push(
          (event.chosen.length ? `Tests given to the agent (${words}):\n\n${event.chosen.map((t) => `- \`${t}\``).join('\n')}` : `Tests given to the agent: ${words}.`) +
            (changed ? `\n\nProposed: ${event.proposed.map((t) => `\`${t}\``).join(', ')}` : ''),
        );
        break;
      }
      case 'tests.added':
        out.push(
          [
            `**${capitalized(addedWords(event))}.**`,
            ...event.accepted.map((t) => `- joined: \`${t.nodeid}\``),
            ...event.rejected.map((r) => `- kept out: \`${r.nodeid}\`: ${r.reason}`),
            ...event.removed.map((id) => `- no longer counted: \`${id}\``),
            ...event.files.map((f) => `\n\`${f.path}\`:\n\n${fence(clip(f.content, 80), 'python')}`),
          ].join('\n'),
        );
        break;
      case 'tests.hidden':
        out.push(`${capitalized(hiddenWords(event))}.`);
        break;
      case 'agent.phase': {
        const heading = phaseHeading(event);
        if (heading) out.push(`## ${heading}`);
        break;
      }
      case 'developer.message':
        out.push(`**The developer** wrote to the model (with request ${event.round}${MESSAGE_SOURCES[event.via] ? `, ${MESSAGE_SOURCES[event.via]}` : ''}):\n\n${quote(event.text)}`);
        break;
      case 'model.response':
        out.push(`**Model** · ${tokensInOut(event.usage)}${event.costUsd ? ` · ${costText(event.costUsd, event.cacheSavedUsd)}` : ''}${event.content ? `\n\n${quote(event.content)}` : ''}`);
        break;
      case 'model.retry':
        out.push(`_The model call failed (${event.reason}); retried._`);
        break;
      case 'model.unanswered':
        out.push(`_${event.reason === 'cancelled' ? 'The model call was cancelled' : 'The model call got no answer'}; what it used was billed all the same: ${tokensInOut(event.usage)}${event.usage.estimated ? ' (estimated)' : ''}${event.costUsd ? ` · ${costText(event.costUsd, event.cacheSavedUsd)}` : ''}._`);
        break;
      case 'tool.call':
        out.push(`**Tool** \`${event.name}\`\n\n${fence(clip(prettyArguments(event.arguments)), 'json')}`);
        break;
      case 'tool.edit': {
        // A submission's code edited: what the developer changed of the model's, as a diff.
        const edit = codeEdit(event.original, event.arguments);
        out.push(
          edit
            ? `_The developer changed the code before it ran (+${edit.added} −${edit.removed} against the model's):_\n\n${fence(clip(edit.diff), 'diff')}`
            : `_The developer changed the arguments before it ran; it ran with:_\n\n${fence(clip(prettyArguments(event.arguments)), 'json')}`,
        );
        break;
      }
      case 'step.pause':
        out.push(`_Step mode: paused ${pauseWords(event)}._`);
        break;
      case 'tool.result':
        out.push(`${event.ok ? 'Result' : 'Error'} (${event.durationMs} ms):\n\n${fence(clip(event.text))}`);
        break;
      case 'debugger.entry':
        out.push(`_Debugger, ${WRITERS[event.entry.who]} (${event.entry.mode}):_ \`${event.entry.input}\``);
        break;
      case 'tests.run':
        out.push(`**${TEST_RUNS[event.purpose]}**: ${event.passed}/${event.total} passed\n\n<details><summary>report</summary>\n\n${fence(clip(event.report, 80))}\n\n</details>`);
        break;
      case 'warning':
        out.push(`> **Warning:** ${event.message}`);
        break;
      case 'context.condensed':
        out.push(`_${condensedWords(event)}._`);
        break;
      case 'command.approval':
        out.push(`_Shell command \`${event.command}\` ${COMMAND_DECISIONS[event.decision]} ${event.by === 'auto' ? 'automatically' : 'by the developer'}${event.reason ? `: ${event.reason}` : ''}._`);
        break;
      case 'patch.decision':
        out.push(`_Patch: ${event.decision}; ${event.applied ? 'applied to the checkout' : event.file ? `saved to ${event.file}` : 'not applied'}${event.reason ? ` (${event.reason})` : ''}._`);
        break;
      case 'session.interrupted':
        out.push(`_Interrupted: ${event.reason}._`);
        break;
      case 'limit.reached':
        out.push(`> **Stopped:** ${capitalized(limitWords(event))}.`);
        break;
      case 'session.forked':
        out.push(`_${capitalized(forkWords(event))}._`);
        break;
      case 'session.resumed':
        out.push(`_${capitalized(resumedWords(event))}._`);
        break;
      case 'result':
        out.push(
          `## Result: ${verdictLabel(event)}\n\n` +
            `- selected tests ${event.selectedTests.passed}/${event.selectedTests.total}, hidden tests ${event.hiddenTests.passed}/${event.hiddenTests.total}\n` +
            `- ${tokensInOut(event.usage)}; ${plural(event.usage.modelCalls, 'model call')}, ${plural(event.usage.toolCalls, 'tool call')}; ${costText(event.costUsd, event.cacheSavedUsd)}; ${(event.wallMs / 1000).toFixed(1)} s` +
            (event.testQuality ? `\n- ${describeTestQuality(event.testQuality)}` : '') +
            (event.failure ? describeFailure(event.failure).map((line) => `\n- ${line}`).join('') : '') +
            (event.patch ? `\n\n${fence(event.patch, 'diff')}` : ''),
        );
        break;
      default:
        break;
    }
  }
  return `${out.join('\n\n')}\n`;
}
