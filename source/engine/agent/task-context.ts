import { testSource } from '../python/test-source';
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
  return [...(from > 0 ? [`# … lines 1-${from} …`] : []), ...lines.slice(from, to), ...(to < lines.length ? [`# … lines ${to + 1}-${lines.length} …`] : [])].join('\n');
}

/** The tests section of the task: each test's code and how it fails with the target unimplemented. */
export async function testsSection(workspaceRoot: string, tests: readonly ThmFailingTest[]): Promise<string> {
  const parts: string[] = [];
  for (const test of tests) {
    const source = await testSource(workspaceRoot, test.nodeid);
    const failure = test.longrepr || test.message;
    parts.push(
      [`### ${test.nodeid}`, source ? '```python\n' + source + '\n```' : '', failure ? `It fails now with:\n\`\`\`\n${failure.split('\n').slice(-30).join('\n')}\n\`\`\`` : '']
        .filter(Boolean)
        .join('\n'),
    );
  }
  return parts.join('\n\n');
}
