import { describeFailure, describeTestQuality } from '../engine/quality/describe';
import type { EngineEvent } from '../engine/events';

const firstLine = (text: string, max = 140) => {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
};

const money = (usd: number) => `$${usd.toFixed(usd < 1 ? 4 : 2)}`;

/**
 * Headless text output of `tenet run`: one line per step worth seeing (the TUI shows more).
 * `--json` prints the events themselves instead.
 */
export function textPrinter(write: (line: string) => void): (event: EngineEvent) => void {
  let streaming = false;
  const endStream = () => {
    if (streaming) write('\n');
    streaming = false;
  };
  return (event) => {
    switch (event.type) {
      case 'session.start':
        write(`tenet · ${event.target} (${event.mode === 'blank' ? 'benchmark mode' : 'stub mode'}) · strategy ${event.strategy} · session ${event.sessionId}\n`);
        write(`model: ${event.modelLabel}\n`);
        break;
      case 'thm.report': {
        const c = event.report.counts;
        write(`THM: ${c.collected} tests · ${c.failing} failing (${c.unreached} unreached) · ${event.report.clusters.length} clusters · ${(event.report.durationMs / 1000).toFixed(1)} s\n`);
        break;
      }
      case 'thm.approval':
        if (event.by === 'strategy') write("tests the agent sees: none of the repository's (TDD: it writes its own)\n");
        else write(`tests the agent sees (${event.by === 'ablation' ? 'all failing tests, --no-thm' : event.by === 'human' ? 'chosen by you' : 'THM selection'}):\n${event.chosen.map((t) => `  ★ ${t}`).join('\n')}\n`);
        break;
      case 'tests.hidden':
        write(`${event.hidden.length} other failing tests hidden until evaluation\n`);
        break;
      case 'agent.phase':
        endStream();
        if (event.phase === 'pregen') write(`pre-generation (up to ${event.rounds} rounds)\n`);
        else if (event.phase === 'rrw') write(`refinement attempt ${event.attempt}/${event.attempts} · ${event.stage?.replace(/-/g, ' ')}\n`);
        else if (event.phase === 'tdd-setup') write(`tests first (up to ${event.rounds} rounds)\n`);
        else if (event.phase === 'tdd') write(`co-refinement · test run ${event.round}/${event.rounds}\n`);
        else if (event.phase === 'evaluate') write('evaluation on every failing test\n');
        else if (event.phase === 'quality') write("measuring the agent's tests (coverage, mutants)\n");
        break;
      case 'model.delta':
        if (!streaming) write('  model: ');
        streaming = true;
        write(event.text.replace(/\n/g, '\n         '));
        break;
      case 'developer.message':
        endStream();
        write(`  developer → model: ${firstLine(event.text)}${event.text.includes('\n') ? ' …' : ''}\n`);
        break;
      case 'model.retry':
        endStream();
        write(`  ! model call failed (${event.reason}); retry ${event.attempt}/${event.maxAttempts - 1} in ${(event.delayMs / 1000).toFixed(1)} s\n`);
        break;
      case 'model.response':
        endStream();
        break;
      case 'tool.call':
        endStream();
        write(`  → ${event.name} ${firstLine(event.arguments, 100)}\n`);
        break;
      case 'tool.edit':
        write(`    ✎ the developer changed the arguments: ${firstLine(event.arguments, 100)}\n`);
        break;
      case 'tool.result':
        write(`    ${event.ok ? '✓' : '✗'} ${firstLine(event.text)}\n`);
        break;
      case 'tests.run':
        endStream();
        write(`  ${event.purpose === 'validate' ? 'selected tests' : event.purpose === 'agent' ? 'run_tests' : 'all failing tests'}: ${event.passed}/${event.total} passed\n`);
        break;
      case 'warning':
        endStream();
        write(`  ! ${event.message}\n`);
        break;
      case 'patch.decision':
        // A refusal was just printed as a warning (it says why); a patch that went in is news too.
        if (event.applied) write('  patch applied to the checkout\n');
        else if (event.file) write(`  patch saved to ${event.file}\n`);
        break;
      case 'result': {
        endStream();
        const u = event.usage;
        write(
          `${event.pass ? 'PASS' : 'FAIL'} (${event.stopReason}) · selected ${event.selectedTests.passed}/${event.selectedTests.total} · hidden ${event.hiddenTests.passed}/${event.hiddenTests.total}` +
            ` · ${u.inputTokens.toLocaleString('en')} tokens in / ${u.outputTokens.toLocaleString('en')} out · ${u.modelCalls} model calls · ${u.toolCalls} tool calls · ${money(event.costUsd)} · ${(event.wallMs / 1000).toFixed(1)} s\n`,
        );
        if (event.testQuality) write(`${describeTestQuality(event.testQuality)}\n`);
        if (event.failure) for (const line of describeFailure(event.failure)) write(`${line}\n`);
        if (event.patch) write(`\n${event.patch}`);
        break;
      }
      default:
        break;
    }
  };
}
