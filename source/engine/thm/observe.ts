import type { PluginCollectError, PluginTestEvent } from './plugin-lines';
import type { PassResult } from './pass-types';
import { checkRan } from './check-ran';
import { failed, failsIn, type Observations } from './observations';
import type { Pass } from './thm-pass';
import type { ThmContext } from './thm-options';

/**
 * How THM observes the worlds it compares. Stub mode has one: the developer's stub, in one pass.
 * Benchmark mode has two, the target blank and the original code, observed in two passes, in one
 * pass with a blank twin forked per test, or from one collection in forked lanes per world.
 */

/** Stub mode: one pass over the scope with the developer's stub; no original world to compare with. */
export async function observeStub(ctx: ThmContext, pass: Pass): Promise<Observations> {
  const probe = checkRan(await pass('probe', ctx.target.probedText, 'record'), ctx);
  return {
    collected: probe.collected,
    blank: probe.tests,
    blankCollectErrors: probe.collectErrors,
    importedAway: [],
    originalFailed: () => false,
    probe,
  };
}

/**
 * Blank pass over the scope, then the tests that failed, on the original code. Those for which
 * the reach index vouches (`passesOriginal`: it ran them on this very code, in the whole scope's
 * order, and they did not fail) take that record for their original world instead, as every test
 * the index leaves out keeps its record; only the others run again.
 */
export async function observeTwoPass(
  ctx: ThmContext,
  pass: Pass,
  passesOriginal: (nodeid: string) => boolean = () => false,
): Promise<Observations> {
  const probe = checkRan(await pass('probe', ctx.target.probedText, 'record'), ctx);
  const candidates = [...[...probe.tests.values()].filter(failed), ...probe.collectErrors];
  // A module that failed to import blank is no test of the index: it runs on the original code.
  const vouched = new Set(
    candidates.filter((c) => c.e !== 'collecterror' && passesOriginal(c.nodeid)).map((c) => c.nodeid),
  );
  const rerun = candidates.filter((c) => !vouched.has(c.nodeid));
  let originalFailed = (_: string) => false;
  if (rerun.length && !probe.timedOut) {
    const original = await pass('original', ctx.target.originalText, 'record', {
      only: rerun.map((c) => c.nodeid),
    });
    originalFailed = failsIn(original.tests, original.collectErrors);
    probe.problems.push(...original.problems.map((p) => `original code: ${p}`));
    probe.timedOut ||= original.timedOut;
  }
  return {
    collected: probe.collected,
    blank: probe.tests,
    blankCollectErrors: probe.collectErrors,
    importedAway: [],
    originalFailed,
    ...(vouched.size ? { recordedOriginals: vouched.size } : {}),
    probe,
  };
}

/**
 * Whether each blank failure fails on the original code too, from what the original world gave
 * (`tests`, `errors`) and, for those it did not give (its process died, a test hung, a shard ran
 * on its own), a pass of their own on the original code.
 */
async function completeOriginalWorld(
  ctx: ThmContext,
  pass: Pass,
  probe: PassResult,
  blankFailures: string[],
  tests: Map<string, PluginTestEvent>,
  errors: PluginCollectError[],
): Promise<(nodeid: string) => boolean> {
  const missing = blankFailures.filter((nodeid) => !tests.has(nodeid) && !errors.some((c) => c.nodeid === nodeid));
  if (missing.length && !probe.timedOut) {
    const rest = await pass('original', ctx.target.originalText, 'record', { only: missing });
    for (const [nodeid, test] of rest.tests) tests.set(nodeid, test);
    errors.push(...rest.collectErrors);
    probe.problems.push(...rest.problems.map((p) => `original code: ${p}`));
    probe.timedOut ||= rest.timedOut;
  }
  return failsIn(tests, errors);
}

/**
 * Both worlds from one collection on the original code (PassMode 'worlds'): lanes forked from it
 * run the scope with the target blank, then lanes forked from it again run what failed blank on
 * the original code. What that could not decide runs as in twin mode: a module that called the
 * target at import time again with the target blank, and the blank failures whose original
 * outcome is missing (a lane died, a shard ran on its own) on the original code. Undefined when
 * the target is called as pytest starts (a conftest.py's import): that collection then holds
 * what the original target computed for every test, and stands for no blank world.
 */
export async function observeWorlds(ctx: ThmContext, pass: Pass): Promise<Observations | undefined> {
  const probe = await pass('probe', ctx.target.probedOriginalText!, 'worlds', { stopAtStartHit: true });
  if (probe.startHit) return undefined;
  checkRan(probe, ctx);
  const observed = await rerunImportHits(ctx, pass, probe, new Map(probe.tests));
  const blankFailures = [...[...observed.blank.values()].filter(failed), ...observed.blankCollectErrors].map(
    (t) => t.nodeid,
  );
  const originalFailed = await completeOriginalWorld(ctx, pass, probe, blankFailures, new Map(probe.original), [
    ...probe.collectErrors,
  ]);
  return { ...observed, originalFailed, probe };
}

/**
 * Fork and worlds modes collect on the original code: a module that called the target at import
 * time (a collect hit) is run again with the target blank, and its tests take that run's outcomes.
 * `blank` holds the outcomes so far; a module that fails to import blank takes its tests with it.
 */
async function rerunImportHits(
  ctx: ThmContext,
  pass: Pass,
  probe: PassResult,
  blank: Map<string, PluginTestEvent>,
  undecided: string[] = [],
): Promise<Omit<Observations, 'originalFailed' | 'probe'>> {
  const modules = probe.collectHits.map((c) => c.nodeid);
  // A module that failed to import on the original code without calling the target fails the
  // same way blank (its import runs the same code): a broken test module, whose tests run in
  // neither world. Left out here, fork and worlds mode would not say so (IPython's
  // tests/test_paths.py, importing a module that was not installed, went unreported).
  const broken = probe.collectErrors.filter((error) => !modules.includes(error.nodeid));
  let blankCollectErrors: PluginCollectError[] = broken;
  let collected = probe.collected;
  const importedAway: PluginTestEvent[] = [];
  if ((undecided.length || modules.length) && !probe.timedOut) {
    const rerun = await pass('blank', ctx.target.probedText, 'record', { only: [...undecided, ...modules] });
    for (const test of rerun.tests.values()) {
      // The outcome is the re-run's; where the target was reached is the whole pass's: a test run
      // alone sets up a wider fixture itself that, in the whole run, an earlier test set up.
      const whole = probe.tests.get(test.nodeid);
      const where =
        whole?.chain || whole?.failsThrough
          ? {
              chain: whole.chain,
              entryKind: whole.entryKind,
              failsThrough: whole.failsThrough ?? null,
              cache: whole.cache ?? null,
            }
          : {};
      blank.set(test.nodeid, { ...test, ...where });
    }
    blankCollectErrors = [
      ...broken,
      ...rerun.collectErrors,
      ...(await importersOfCallers(ctx, pass, probe, [...modules, ...broken.map((error) => error.nodeid)])),
    ];
    // A module that fails to import blank takes its tests with it, as in a plain blank run.
    for (const error of blankCollectErrors) {
      for (const nodeid of [...blank.keys()]) {
        if (nodeid.startsWith(`${error.nodeid}::`)) {
          importedAway.push(blank.get(nodeid)!);
          blank.delete(nodeid);
          collected--;
        }
      }
    }
    probe.problems.push(...rerun.problems.map((p) => `blank re-run: ${p}`));
    probe.timedOut ||= rerun.timedOut;
  }
  return { collected, blank, blankCollectErrors, importedAway };
}

/**
 * A collect hit through another module (the test module imported `table.py`, whose body called
 * the target): Python keeps that module imported, so the test modules collected after it on the
 * original code imported it without a call, and blank each would fail to import as the first did.
 * They are imported again, blank, running no test: those that fail are blank collection errors.
 */
async function importersOfCallers(
  ctx: ThmContext,
  pass: Pass,
  probe: PassResult,
  done: string[],
): Promise<PluginCollectError[]> {
  const throughAnother = probe.collectHits.some((hit) =>
    hit.chain.slice(1, -1).some((frame) => frame.name.endsWith('::<module>')),
  );
  if (!throughAnother) return [];
  const files = [...new Set([...probe.tests.keys()].map((nodeid) => nodeid.split('::')[0]!))].filter(
    (file) => !done.includes(file),
  );
  if (!files.length) return [];
  const imported = await pass('blank', ctx.target.probedText, 'record', { only: files, collectOnly: true });
  probe.problems.push(...imported.problems.map((p) => `blank re-import: ${p}`));
  return imported.collectErrors;
}

/**
 * One pass on the original code in which each test that calls the target forks a blank twin at
 * that call; a blank pass afterwards only for what the twins could not decide (a subprocess called
 * the target, a module called it at import time, a twin died). Undefined, as observeWorlds, when
 * the target is called as pytest starts.
 */
export async function observeForked(ctx: ThmContext, pass: Pass): Promise<Observations | undefined> {
  const probe = await pass('probe', ctx.target.probedOriginalText!, 'fork', { stopAtStartHit: true });
  if (probe.startHit) return undefined;
  checkRan(probe, ctx);
  const blank = new Map<string, PluginTestEvent>();
  const undecided: string[] = [];
  for (const test of probe.tests.values()) {
    if (test.needsBlank) undecided.push(test.nodeid);
    else if (test.blank) blank.set(test.nodeid, { ...test, ...test.blank });
    else blank.set(test.nodeid, test); // never called the target: the same outcome in both worlds
  }
  const observed = await rerunImportHits(ctx, pass, probe, blank, undecided);
  return { ...observed, originalFailed: failsIn(probe.tests, probe.collectErrors), probe };
}
