import type { TestQuality } from '../events';
import { findFunction } from '../python-source/function-parts';
import { parsePython } from '../python-source/parser';
import { encodeSource } from '../python-source/source-text';
import type { ToolContext } from '../tools/context';
import { runTests } from '../tools/run-tests';
import { measureCoverage } from './coverage';
import { generateMutants } from './mutants';
import { runMutation } from './mutation';

export interface QualityInput {
  ctx: ToolContext;
  /** The agent's test file, relative to the workspace. */
  testFile: string;
  /** The target module as the agent left it. */
  finalText: string;
  jobs?: number;
  maxMutants?: number;
}

/** `test_…` names a test module defines (functions and methods), for comparing its versions. */
function testNames(code: string): string[] {
  return [...code.matchAll(/^[ \t]*(?:async[ \t]+)?def[ \t]+(test\w*)/gm)].map((m) => m[1]!);
}

async function startLineOf(text: string, qualname: string): Promise<number> {
  const tree = await parsePython(text);
  try {
    const found = findFunction(tree, qualname);
    if (!found) throw new Error(`${qualname} is not in the module any more`);
    return found.startLine;
  } finally {
    tree.delete();
  }
}

/** Puts a version of the target module in the workspace (and the sandbox). */
async function placeTarget(ctx: ToolContext, text: string): Promise<void> {
  await ctx.workspace.write(ctx.target.file, encodeSource({ text, encoding: ctx.target.source.encoding }));
  await ctx.sandbox.syncFile(ctx.target.file);
}

/**
 * How good the agent's own tests are, as the TDD-Agent paper measures them: their pass rate on the
 * ground truth (benchmark mode), the line and branch coverage of the target they reach, and the
 * share of mutants of the target they kill. Measured on the ground truth in benchmark mode, else
 * on the final implementation (a stub has nothing else). The workspace ends as the agent left it.
 */
export async function measureTestQuality(input: QualityInput): Promise<TestQuality> {
  const { ctx, testFile } = input;
  const benchmark = ctx.target.mode === 'blank';
  const subjectText = benchmark ? ctx.target.originalText : input.finalText;
  const quality: TestQuality = {
    file: testFile,
    tests: 0,
    subject: benchmark ? 'ground truth' : 'final implementation',
    problems: [],
  };
  const attempt = async (what: string, step: () => Promise<void>) => {
    try {
      await step();
    } catch (error) {
      quality.problems.push(`${what}: ${(error as Error).message.split('\n')[0]}`);
    }
  };
  await placeTarget(ctx, subjectText);
  try {
    await attempt('running the tests', async () => {
      const run = await runTests(ctx, [testFile], 'quality');
      quality.tests = run.total;
      if (benchmark)
        quality.groundTruth = {
          passed: run.passed,
          total: run.total,
          failing: Object.entries(run.outcomes)
            .filter(([, o]) => o !== 'passed')
            .map(([id]) => id),
        };
    });
    const startLine = await startLineOf(subjectText, ctx.target.qualname);
    await attempt('coverage', async () => {
      const coverage = await measureCoverage({
        sandbox: ctx.sandbox,
        workspaceRoot: ctx.workspace.root,
        python: ctx.python.executable,
        target: { file: ctx.target.file, qualname: ctx.target.qualname, startLine },
        testFile,
        timeoutMs: 600_000,
      });
      quality.coverage = { lines: coverage.lines, branches: coverage.branches };
    });
    await attempt('mutation', async () => {
      const mutants = await generateMutants(
        subjectText,
        { qualname: ctx.target.qualname, startLine },
        { max: input.maxMutants ?? 60 },
      );
      const report = await runMutation({
        sandbox: ctx.sandbox,
        workspaceRoot: ctx.workspace.root,
        python: ctx.python.executable,
        target: { file: ctx.target.file, encoding: ctx.target.source.encoding },
        testFile,
        mutants,
        ...(input.jobs ? { jobs: input.jobs } : {}),
      });
      quality.mutation = {
        killed: report.killed,
        survived: report.survived,
        timedOut: report.timedOut,
        total: report.total,
        score: report.score,
        baselinePassed: report.baselinePassed,
      };
    });
  } finally {
    await placeTarget(ctx, input.finalText);
  }
  return quality;
}

/**
 * The paper's failure taxonomy for a failed task: matched (the agent's tests pass, the hidden ones
 * do not: the tests were too weak) or unmatched (its own tests fail), and credit-assignment hints:
 * tests of its final suite that the ground truth fails (the code was bent to fit a wrong test), and
 * tests it deleted on the way that the ground truth passes (a right test was given up).
 */
export async function classifyFailure(input: {
  ctx: ToolContext;
  ownTestsGreen: boolean;
  quality?: TestQuality;
  finalOutcomes: Record<string, string>;
  /** Each accepted version of the agent's test module, in order. */
  testVersions: string[];
  finalText: string;
}): Promise<{ kind: 'matched' | 'unmatched'; hints: string[] }> {
  const hints: string[] = [];
  const wrong = (input.quality?.groundTruth?.failing ?? []).filter((id) => input.finalOutcomes[id] === 'passed');
  if (wrong.length)
    hints.push(
      `the code passes ${wrong.length} of its own test${wrong.length === 1 ? '' : 's'} that the reference implementation fails (${wrong.map((id) => id.split('::').pop()).join(', ')}): it was likely changed to fit a wrong test`,
    );
  const final = new Set(testNames(input.testVersions.at(-1) ?? ''));
  const deleted = new Map<string, string>();
  for (const version of input.testVersions.slice(0, -1))
    for (const name of testNames(version)) if (!final.has(name)) deleted.set(name, version);
  if (deleted.size && input.ctx.target.mode === 'blank') {
    // Run the last version that still had each deleted test on the ground truth.
    const confirmed: string[] = [];
    const byVersion = new Map<string, string[]>();
    for (const [name, version] of deleted) byVersion.set(version, [...(byVersion.get(version) ?? []), name]);
    const path = input.ctx.agentTestFile!.replace(/\.py$/, '_removed.py');
    await placeTarget(input.ctx, input.ctx.target.originalText);
    try {
      for (const [version, names] of byVersion) {
        await input.ctx.workspace.write(path, version);
        await input.ctx.sandbox.syncFile(path);
        const run = await runTests(input.ctx, [path], 'removed-tests');
        confirmed.push(
          ...names.filter((name) =>
            Object.entries(run.outcomes).some(([id, o]) => id.endsWith(`::${name}`) && o === 'passed'),
          ),
        );
      }
    } finally {
      // The copy stays in the scratch workspace (the evaluation is over); the target goes back.
      await placeTarget(input.ctx, input.finalText);
    }
    if (confirmed.length)
      hints.push(
        `it deleted ${confirmed.length} test${confirmed.length === 1 ? '' : 's'} that the reference implementation passes (${confirmed.join(', ')}): a right test was given up for wrong code`,
      );
  } else if (deleted.size) {
    hints.push(`it deleted tests on the way (${[...deleted.keys()].join(', ')}); check whether they were right`);
  }
  return { kind: input.ownTestsGreen ? 'matched' : 'unmatched', hints };
}
