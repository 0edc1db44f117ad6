import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { SUITES, type Suite } from '../../qa/suites';
import { ROOT } from './fixtures';
import { awaitImageBuild } from './image-build';
import { envWithInterpreterPlugins } from './pytest-plugins';

/**
 * Issue 33: THM in every mode against plain pytest on real suites (qa/thm.ts), the fixed sample
 * CI runs: 14 targets (seed 1) of the suites marked for it (sympy's printers, a dispatcher;
 * jsonschema, unittest classes with mixins; a src layout with a namespace subpackage; a suite under
 * `filterwarnings = error`). Every disagreement is printed.
 *
 * One run of the sample took minutes; it is spread over test/e2e/qa-thm-*.test.ts, one suite's
 * share of the draw each, or a part of that share (`--part K/N`). `--suite S --targets N --seed 1`
 * draws from S what the sample draws there when N is S's share: the sample draws ⌈14/4⌉ from each
 * suite in turn, and what is left from the last.
 */
const SAMPLE = { seed: 1 };
const sampleSuites = SUITES.filter((suite) => suite.ci).map((suite) => suite.name);

/** The suite named `suite`, which must be in the fixed sample. */
function sampleSuite(suite: string): Suite & { ci: number } {
  const found = SUITES.find((s) => s.name === suite);
  if (!found?.ci) throw new Error(`${suite} is not in the fixed sample (${sampleSuites.join(', ')})`);
  return { ...found, ci: found.ci };
}

/** How many targets the fixed sample draws from `suite`. */
export function sampleShare(suite: string): number {
  return sampleSuite(suite).ci;
}

/** The suites of the sample: the qa-thm files must cover them all. */
export const SAMPLE_SUITES = sampleSuites;

/** The test of `suite`'s share of the fixed sample, or of its part `part` ([K, N]: every Nth target from the Kth). */
export function sampleOfSuite(suite: string, part?: [number, number]): void {
  const { ci: share, interpreterPlugins: plugins, docker } = sampleSuite(suite);
  const [k, n] = part ?? [1, 1];
  const checked = Array.from({ length: share }, (_, i) => i).filter((i) => i % n === k - 1).length;
  const which = part ? `, part ${k}/${n}` : '';
  describe(`the differential check of THM, the fixed sample: ${suite}${which}`, () => {
    it(`every mode agrees with plain pytest and with the others on ${checked} of the ${share} targets drawn`, async () => {
      // qa:thm runs its Docker mode where the image is, and skips it where not: where the global
      // setup is building the image (test/setup/docker-image.ts), the mode waits for it.
      if (docker) await awaitImageBuild();
      const args = ['--suite', suite, '--targets', String(share), '--seed', String(SAMPLE.seed)];
      // The parts of the share make the suite's set-up once between them (qa/suite-setup.ts).
      if (part) args.push('--part', `${k}/${n}`, '--shared', inject('qaShared'));
      const child = spawn(
        process.execPath,
        [join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), join(ROOT, 'qa', 'thm.ts'), ...args],
        { cwd: ROOT, env: plugins ? envWithInterpreterPlugins() : process.env },
      );
      let output = '';
      child.stdout.on('data', (chunk) => (output += chunk));
      child.stderr.on('data', (chunk) => (output += chunk));
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      process.stdout.write(output);
      // Every target drawn has tests that fail on it blank: one without would agree trivially.
      expect(output).toMatch(
        new RegExp(`^${checked} targets \\(${checked} with failing tests\\), 0 with a disagreement · seed 1`, 'm'),
      );
      expect(code, output).toBe(0);
      if (docker && process.env.TENET_TEST_DOCKER === 'require') expect(output).not.toContain('(docker: no engine');
    }, 1_800_000);
  });
}
