import { TenetError } from '../errors';
import type { ProbeFrame } from './plugin-lines';
import type { PassResult } from './pass-types';
import { scopeFix } from './scope-fix';
import type { ThmContext } from './thm-options';

/** The pass itself, when pytest ran the scope; else why it could not, as an error that says what to do. */
export function checkRan(probe: PassResult, ctx: ThmContext): PassResult {
  if (probe.collected === 0 && probe.collectErrors.length === 0 && probe.problems.length) {
    if (probe.startHit) throw calledAsPytestStarts(ctx, probe.startHit, probe.problems);
    // pytest's own output keeps its blank lines; here they only spread the message out.
    const said = probe.problems.join('\n').replace(/\n\s*\n/g, '\n');
    throw new TenetError(`pytest could not run the tests:\n${said}`, scopeFix(ctx.workspace.root, probe.problems));
  }
  return probe;
}

/**
 * pytest stopped before any test, and the target had been called outside every test: by a
 * conftest.py as pytest imported it (sympy's imports `sympy`, whose import computes with
 * `igcd`). With the target blank, or the developer's stub, no test of the scope can even start,
 * so there are no failing tests to choose from: say that, and where the call comes from.
 */
function calledAsPytestStarts(ctx: ThmContext, chain: ProbeFrame[], problems: string[]): TenetError {
  const body = ctx.target.mode === 'blank' ? 'its body blank' : 'its body the stub';
  // importlib's own frames say nothing the file names around them do not.
  const code = chain.filter((frame) => !frame.name.startsWith('<frozen '));
  // A long chain keeps its first frame, the import whose top level makes the call, and its end.
  let lastImport = -1;
  code.forEach((frame, index) => {
    if (frame.name.endsWith('::<module>')) lastImport = index;
  });
  const kept = [...new Set([0, lastImport, code.length - 3, code.length - 2, code.length - 1])]
    .filter((index) => index >= 0)
    .sort((a, b) => a - b);
  const shown =
    code.length > 6
      ? kept.flatMap((index, at) => (at > 0 && index > kept[at - 1]! + 1 ? ['…', code[index]!] : [code[index]!]))
      : code;
  const where = shown
    .map((frame) => (typeof frame === 'string' ? frame : `${frame.name}:${frame.line}`))
    .join('\n  → ');
  // pytest's traceback retells the chain above: its head (what failed) and its end (the call) suffice.
  const said = problems.join('\n').split('\n');
  const told = said.length > 16 ? [...said.slice(0, 3), `  … (${said.length - 13} lines)`, ...said.slice(-10)] : said;
  return new TenetError(
    `${ctx.target.id} is called while pytest starts, before any test runs:\n  ${where}\n` +
      `With ${body}, that call fails and pytest stops before any test: there is no failing test to choose from. What pytest said:\n${told.join('\n')}`,
    ctx.target.mode === 'blank'
      ? 'choose a target that importing the package and its conftest.py does not call (benchmark mode needs the suite to start with the target blank)'
      : 'give the stub a body that serves this call (or move the call out of import time), then run tenet again',
  );
}
