import { dirname, posix } from 'node:path';
import { existsSync } from 'node:fs';
import * as z from 'zod';
import { parsePython } from '../python-source/parser';
import { decodeSource, encodeSource } from '../python-source/source-text';
import { RejectedCode, replaceFunction, cleanCode } from '../task/replace-function';
import type { ToolContext } from './context';
import { describeSyntaxError } from '../python-source/syntax-error';
import { harnessReach, reachWords } from '../python-source/harness-reach';
import { defineTool, ToolInputError } from './tool';

export interface AppliedImplementation {
  text: string;
  startLine: number;
  endLine: number;
  addedImports: string[];
}

/** Puts submitted code in place of the target in the workspace, and re-indexes the file. */
export async function applyImplementation(ctx: ToolContext, code: string): Promise<AppliedImplementation> {
  const problem = await describeSyntaxError(await cleanCode(code), ctx);
  if (problem)
    throw new ToolInputError(
      `The code does not parse (Python syntax error at ${problem}).\nFix it and submit the whole function again.`,
    );
  const source = decodeSource(await ctx.workspace.read(ctx.target.file));
  let submission;
  try {
    submission = await replaceFunction(source.text, ctx.target.qualname, ctx.target.startLine, code);
  } catch (error) {
    if (error instanceof RejectedCode) throw new ToolInputError(error.message);
    throw error;
  }
  await writeTarget(ctx, submission.text);
  return submission;
}

/** Writes the target's module in the workspace (in its encoding), in the sandbox and the index. */
export async function writeTarget(ctx: ToolContext, text: string): Promise<void> {
  await ctx.workspace.write(ctx.target.file, encodeSource({ text, encoding: ctx.target.source.encoding }));
  await ctx.sandbox.syncFile(ctx.target.file);
  await ctx.index.update(ctx.target.file);
}

export const submitImplementation = defineTool({
  name: 'submit_implementation',
  changesFiles: true,
  description:
    'Replace the target function in the repository with your implementation: the complete function definition (def line and body; decorators optional, imports it needs may come first). Then call run_tests.',
  schema: z.object({ code: z.string().min(1).describe('The complete Python function definition') }),
  async run({ code }, ctx) {
    const applied = await applyImplementation(ctx, code);
    const imports = applied.addedImports.length
      ? ` Added to the module's imports: ${applied.addedImports.join('; ')}.`
      : '';
    const reach = await harnessReach(code).catch(() => []);
    const warning = reach.length
      ? `\nWarning: it reaches toward the test harness: ${reachWords(reach)}. Code that reaches into the harness makes the verdict UNVERIFIED; solve the task with ordinary code.`
      : '';
    return `Your implementation of ${ctx.target.id} is in place (${ctx.target.file}, lines ${applied.startLine}-${applied.endLine}).${imports} Run run_tests to check it.${warning}`;
  },
});

/** Where the agent's tests go: next to the first selected test, else in tests/, else next to the target. */
function agentTestPath(ctx: ToolContext): string {
  const first = ctx.selectedTests.find((t) => t.includes('.py'));
  const dir = first
    ? dirname(first.split('::')[0]!)
    : existsSync(ctx.workspace.path('tests'))
      ? 'tests'
      : dirname(ctx.target.file);
  return posix.join(dir === '.' ? '' : dir, 'test_by_agent.py');
}

/** Writes the agent's test module (checked to parse and to hold a test) where run_tests finds it. */
export async function applyTests(ctx: ToolContext, code: string): Promise<{ path: string; tests: number }> {
  const text = await cleanCode(code);
  const problem = await describeSyntaxError(text, ctx);
  if (problem)
    throw new ToolInputError(
      `The test module does not parse (Python syntax error at ${problem}).\nFix it and submit the whole module again.`,
    );
  const tree = await parsePython(text);
  let tests = 0;
  try {
    for (const node of tree.rootNode.namedChildren) {
      const def = node?.type === 'decorated_definition' ? node.childForFieldName('definition') : node;
      const name = def?.childForFieldName('name')?.text ?? '';
      if (def?.type === 'function_definition' && name.startsWith('test')) tests++;
      if (def?.type === 'class_definition' && name.startsWith('Test'))
        tests += def
          .descendantsOfType('function_definition')
          .filter((f) => f?.childForFieldName('name')?.text.startsWith('test')).length;
    }
  } finally {
    tree.delete();
  }
  if (!tests)
    throw new ToolInputError(
      'The module has no test: write functions named test_… (or methods of a class named Test…).',
    );
  const path = agentTestPath(ctx);
  await ctx.workspace.write(path, text);
  await ctx.sandbox.syncFile(path);
  ctx.agentTestFile = path;
  return { path, tests };
}

export const submitTests = defineTool({
  name: 'submit_tests',
  changesFiles: true,
  description:
    'Write your own pytest tests for the target (a whole test module: imports, helpers, test_ functions). They replace any earlier version and run with run_tests.',
  schema: z.object({ code: z.string().min(1).describe('A complete pytest test module') }),
  async run({ code }, ctx) {
    const { path, tests } = await applyTests(ctx, code);
    return `Wrote ${tests} test${tests === 1 ? '' : 's'} to ${path}. run_tests runs them with the session's tests.`;
  },
});
