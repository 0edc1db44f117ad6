import { testSourceAt } from '../python-source/test-source';
import { entryFunction } from '../thm/clustering';
import type { PreparedTarget } from '../task/prepare-target';
import type { ThmFailingTest } from '../protocol/thm-report';

const WHOLE_MODULE_LINES = 150;
const AROUND = 25;

/** The target in its module: the whole module when short, else the lines around the target. */
export function moduleContext(target: PreparedTarget): string {
  const lines = target.startText.split('\n');
  if (lines.length <= WHOLE_MODULE_LINES) return target.startText.trimEnd();
  const endLine = target.startLine + target.prompt.split('\n').length + 2;
  const from = Math.max(0, target.startLine - 1 - AROUND);
  const to = Math.min(lines.length, endLine + AROUND);
  // The source as it is, blank lines included (they separate docstring paragraphs and defs).
  return [
    ...(from > 0 ? [`# … lines 1-${from} …`] : []),
    ...lines.slice(from, to),
    ...(to < lines.length ? [`# … lines ${to + 1}-${lines.length} …`] : []),
  ].join('\n');
}

/**
 * A test's lines in the task at most. The task is sent again with every round: a test of a
 * thousand lines (regex's test_hg_bugs, 51 KB) shows its head and its end, and the agent reads
 * the rest with its tools.
 */
const TEST_LINES = 120;
const TEST_HEAD = 80;
const TEST_TAIL = 30;

/** The test's source, its middle left out when it is longer than TEST_LINES, saying which lines of its file were. */
export function shortenedTest(source: string, file: string, line: number): string {
  const lines = source.split('\n');
  if (lines.length <= TEST_LINES) return source;
  const from = line + TEST_HEAD;
  const to = line + lines.length - TEST_TAIL - 1;
  const indent = /^\s*/.exec(lines[TEST_HEAD] ?? '')![0];
  const note = `${indent}# … lines ${from}-${to} of ${file} left out here (${to - from + 1} lines): read them with read_file or get_code_around_line …`;
  return [...lines.slice(0, TEST_HEAD), note, ...lines.slice(-TEST_TAIL)].join('\n');
}

/** The tests section of the task: each test's code and how it fails with the target unimplemented. */
export async function testsSection(workspaceRoot: string, tests: readonly ThmFailingTest[]): Promise<string> {
  const parts: string[] = [];
  for (const test of tests) {
    // By its node id, else by the function its chain entered by (a mixin's test defined in another file).
    const entry = entryFunction(test);
    const found =
      (await testSourceAt(workspaceRoot, test.nodeid)) ??
      (entry ? await testSourceAt(workspaceRoot, entry) : undefined);
    const source = found && shortenedTest(found.text, test.nodeid.split('::')[0]!, found.line);
    const failure = test.longrepr || test.message;
    parts.push(
      [
        `### ${test.nodeid}`,
        source ? `\`\`\`python\n${source}\n\`\`\`` : '',
        failure ? `It fails now with:\n\`\`\`\n${failure.split('\n').slice(-30).join('\n')}\n\`\`\`` : '',
      ]
        .filter(Boolean)
        .join('\n'),
    );
  }
  return parts.join('\n\n');
}
