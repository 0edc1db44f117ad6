import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { applyToCheckout, unifiedPatch } from '../eval/patch';
import { secretsInPatch } from '../eval/patch-secrets';
import { evaluatePristine } from '../eval/pristine-evaluation';
import { targetIsStub } from '../eval/submitted-module';
import { TenetError } from '../errors';
import type { EventOf, RunResult, TestRun } from '../events';
import { resultUsage, type Totals } from '../model/usage-sums';
import type { PatchAnswer } from '../protocol/decisions';
import type { TargetVerdict } from '../protocol/plan';
import { encodeSource } from '../python-source/source-text';
import { locateTarget } from '../task/plan-targets';
import { prepareTarget } from '../task/prepare-target';
import { entryPassed } from './finish-run';
import { planTargetName } from '../phrase-book';
import { composeModules, placesIn, type Modules, type TargetCode } from './plan-code';
import { keptCode, type PlanRun } from './plan-target';
import { decideThenEnd } from './patch-decision';

type End = EventOf<'plan.target.end'>;

/** The final evaluation's outcome: its run, why it could not be completed, or none (no target was kept). */
type FinalEvaluation = { run: TestRun } | { unverified: string } | undefined;

/**
 * The plan's final evaluation: every kept target's code together (each was judged with the code of
 * those before it; a later one may still break an earlier one), in a fresh copy of the checkout,
 * against the failing tests of them all, hidden ones included. Judged as one submission: each kept
 * target's definition counts as the submitted code.
 */
async function evaluateTogether(plan: PlanRun): Promise<FinalEvaluation> {
  const { options, state } = plan;
  const kept = keptCode(plan);
  if (!kept.length) return undefined;
  const tests = [...new Set(kept.flatMap((k) => state.ended.get(k.place.target)!.failing))];
  options.emit({ type: 'plan.final', targets: kept.map((k) => k.place.target), tests: tests.length });
  const modules = await composeModules(plan.originals, kept);
  const last = kept.at(-1)!.place;
  const source = modules.get(last.file)!;
  const target = await prepareTarget(
    { file: last.file, qualname: last.qualname, id: last.target, source, ...(await locateTarget(source.text, last)) },
    'stub',
  );
  const others = kept.slice(0, -1).map((k) => k.place);
  if (others.length) target.alsoSubmitted = await placesIn(modules, others);
  const judged = await evaluatePristine({
    task: { ...plan.shared, target },
    moduleText: source.text,
    otherModules: [...modules].filter(([file]) => file !== last.file).map(([file, text]) => ({ file, source: text })),
    tests,
    testArgs: options.testArgs,
    testTimeoutSec: options.testTimeoutSec,
    jobs: options.jobs,
    session: plan.sessionId,
    checkoutAtStart: plan.checkoutAtStart,
    ...(options.sessionsRoot ? { skip: new Set([options.sessionsRoot]) } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  if ('run' in judged)
    options.emit({
      type: 'tests.run',
      purpose: 'evaluate',
      report: judged.run.report,
      outcomes: judged.run.outcomes,
      passed: judged.run.passed,
      total: judged.run.total,
    });
  else options.emit({ type: 'warning', message: `The plan's verdict is unverified: ${judged.unverified}.` });
  return judged;
}

/**
 * Each target's verdict, in the plan's order: a kept target's from the final evaluation (its own
 * failing tests, with the others' code in place), any other's from its own run, and `skipped` for
 * one that never ran to its end.
 */
function verdicts(plan: PlanRun, final: FinalEvaluation): TargetVerdict[] {
  const decided = plan.state.plan!;
  const outcomes = final && 'run' in final ? final.run.outcomes : {};
  return [...decided.order, ...decided.skipped].map((target) => {
    const end = plan.state.ended.get(target);
    if (!end)
      return {
        target,
        pass: false,
        stopReason: 'skipped',
        selectedTests: { passed: 0, total: 0 },
        hiddenTests: { passed: 0, total: 0 },
        attempts: 0,
      };
    const { pass, stopReason, selectedTests, hiddenTests, attempts, message } = end;
    if (!end.kept)
      return { target, pass, stopReason, selectedTests, hiddenTests, attempts, ...(message ? { message } : {}) };
    const passedIn = (ids: string[]) => ids.filter((id) => entryPassed(id, outcomes)).length;
    const hidden = end.failing.filter((id) => !end.selected.includes(id));
    const together = !!final && 'run' in final && end.failing.every((id) => entryPassed(id, outcomes));
    return {
      target,
      pass: together,
      stopReason: !final || !('run' in final) ? 'unverified' : together ? stopReason : 'budget',
      selectedTests: { passed: passedIn(end.selected), total: end.selected.length },
      hiddenTests: { passed: passedIn(hidden), total: hidden.length },
      attempts,
      ...(together ? {} : { message: 'its tests fail with the other targets’ code in place' }),
    };
  });
}

/** The ended targets that have code, in the order they finished: what the plan's patch holds. */
function withCode(plan: PlanRun): TargetCode[] {
  return [...plan.state.ended.values()]
    .filter((end) => (plan.state.submissions.get(end.target) ?? []).length)
    .map((end) => ({ place: plan.places.get(end.target)!, submissions: plan.state.submissions.get(end.target)! }));
}

/** One unified diff per file the code changes, the files in the plan's order. */
function patchOf(originals: Modules, modules: Modules): string {
  return [...originals]
    .map(([file, original]) => unifiedPatch(file, original.text, modules.get(file)!.text))
    .filter(Boolean)
    .join('');
}

/** What the plan's result says: one verdict each, the patch of every target with code, the figures summed. */
export async function finishPlan(
  plan: PlanRun,
  totals: Totals,
  startedAt: number,
  stopped?: RunResult['stopReason'],
): Promise<RunResult> {
  const { options, state } = plan;
  const final = await evaluateTogether(plan);
  const targets = verdicts(plan, final);
  const unverified = final && 'unverified' in final ? final.unverified : undefined;
  const pass = targets.length > 0 && targets.every((t) => t.pass) && !unverified && !stopped;
  const code = withCode(plan);
  const modules = await composeModules(plan.originals, code);
  const patchSecrets = [...plan.originals].flatMap(([file, original]) =>
    secretsInPatch(file, original.text, modules.get(file)!.text),
  );
  const ends = [...state.ended.values()];
  const sum = (pick: (end: End) => number) => ends.reduce((n, end) => n + pick(end), 0);
  const failed = targets.find((t) => !t.pass);
  const result: RunResult = {
    type: 'result',
    sessionId: plan.sessionId,
    target: planLabel(state.plan!.targets),
    strategy: options.strategy,
    pass,
    stopReason:
      stopped ?? (unverified ? 'unverified' : pass ? 'passed' : stopReasonOf(failed?.stopReason ?? 'finished')),
    ...(unverified ? { message: unverified } : failed && !pass ? { message: failedWords(targets) } : {}),
    selectedTests: {
      passed: sumOf(targets, 'selectedTests', 'passed'),
      total: sumOf(targets, 'selectedTests', 'total'),
    },
    hiddenTests: { passed: sumOf(targets, 'hiddenTests', 'passed'), total: sumOf(targets, 'hiddenTests', 'total') },
    tests: final && 'run' in final ? final.run.outcomes : {},
    ...resultUsage(totals, totals.modelCalls, totals.toolCalls),
    rounds: {
      pregen: sum((e) => e.rounds?.pregen ?? 0),
      rrwAttempts: sum((e) => e.rounds?.rrwAttempts ?? e.attempts),
      total: totals.rounds,
    },
    ...(totals.unpriced ? { costUnpriced: true } : {}),
    ...(totals.estimatedTokens ? { tokensEstimated: true } : {}),
    costOfPass: pass ? totals.costUsd : null,
    wallMs: Date.now() - startedAt,
    patch: patchOf(plan.originals, modules),
    ...(patchSecrets.length ? { patchSecrets } : {}),
    model: options.model.settings.model,
    applied: false,
    targets,
  };
  return decideThenEnd(
    options.pilot,
    result,
    (answer) => applyPlan(plan, targets, code, answer, unverified),
    options.emit,
  );
}

/** `geo/shapes.py`, or the targets as given: what the session lists as its target. */
export function planLabel(targets: readonly { file: string }[]): string {
  const files = [...new Set(targets.map((t) => t.file))];
  const count = targets.length === 1 ? '1 target' : `${targets.length} targets`;
  return files.length === 1 ? `${files[0]} (${count})` : count;
}

const sumOf = (targets: TargetVerdict[], field: 'selectedTests' | 'hiddenTests', part: 'passed' | 'total') =>
  targets.reduce((n, t) => n + t[field][part], 0);

/** A target's stop reason as the result's: a skipped target's plan `finished` without it. */
function stopReasonOf(reason: string): RunResult['stopReason'] {
  return reason === 'skipped' || reason === 'deferred' ? 'finished' : (reason as RunResult['stopReason']);
}

/** `2 of 3 targets passed; describe: budget; perimeter: skipped`. */
function failedWords(targets: TargetVerdict[]): string {
  const passed = targets.filter((t) => t.pass).length;
  const others = targets.filter((t) => !t.pass).map((t) => `${planTargetName(t.target)}: ${t.stopReason}`);
  return `${passed} of ${targets.length} targets passed; ${others.join('; ')}`;
}

/**
 * Writes the chosen targets' code into the checkout: `accept` is every target with code (`a` in
 * the TUI sends the passed ones), else the targets named. Every file must be as the run found it
 * (checked for all before any is written); a target still a stub, or a verdict tenet could not
 * check, is never written.
 */
async function applyPlan(
  plan: PlanRun,
  targets: TargetVerdict[],
  code: TargetCode[],
  answer: PatchAnswer,
  unverified: string | undefined,
): Promise<string[]> {
  const named = typeof answer === 'object' && 'targets' in answer ? new Set(answer.targets) : undefined;
  const chosen = code.filter((c) => !named || named.has(c.place.target));
  if (!chosen.length) throw new TenetError('No target with code was chosen; nothing was applied.');
  const verdict = new Map(targets.map((t) => [t.target, t]));
  const unchecked = chosen.find((c) => verdict.get(c.place.target)?.stopReason === 'unverified');
  if (unverified || unchecked)
    throw new TenetError(
      `The verdict is unverified (${unverified ?? `${unchecked!.place.target}: ${verdict.get(unchecked!.place.target)?.message ?? ''}`}); the patch was not applied. It is kept in the session (tenet show ${plan.sessionId}).`,
    );
  const modules = await composeModules(plan.originals, chosen);
  for (const { place } of chosen) {
    const text = modules.get(place.file)!.text;
    if (await targetIsStub(text, { qualname: place.qualname, startLine: (await locateTarget(text, place)).startLine }))
      throw new TenetError(`The submitted ${place.qualname} is still a stub; the patch was not applied.`);
  }
  const files = [...new Set(chosen.map((c) => c.place.file))];
  // All or none: a file changed since the run started stops every file, before any is written.
  for (const file of files) {
    const path = join(plan.shared.repoDir, file);
    if (!existsSync(path) || !readFileSync(path).equals(encodeSource(plan.originals.get(file)!)))
      throw new TenetError(
        `${file} changed in the checkout since the run started; the patch was not applied.`,
        'apply the printed patch by hand (git apply), or re-run tenet',
      );
  }
  for (const file of files)
    applyToCheckout(plan.shared.repoDir, file, plan.originals.get(file)!, modules.get(file)!.text);
  return chosen.map((c) => c.place.target);
}
