/**
 * How each test failed, read back from a test run's report (engine/tools/run-tests.ts writes it:
 * a line per test, then for each failure a `FAILED id` or `ERROR id` line and its traceback and
 * assertion indented by four spaces, blocks apart by a blank line). A module that failed to import
 * (`ERROR collecting file: message`) stands for the tests in it.
 */
export function failuresOf(report: string): Record<string, string> {
  const failures: Record<string, string> = {};
  for (const block of report.split('\n\n').slice(1)) {
    const [head, ...body] = block.split('\n');
    const match = /^(FAILED|ERROR) (collecting )?(\S+?):?(?: (.*))?$/.exec(head ?? '');
    if (!match) continue;
    const [, , collecting, id, message] = match;
    const text = body
      .map((line) => line.replace(/^ {4}/, ''))
      .join('\n')
      .trimEnd();
    failures[id!] = collecting ? `The module failed to import: ${message ?? ''}\n${text}`.trimEnd() : text;
  }
  return failures;
}

/** A test's failure: its own, or that of the module it is in, when that failed to import. */
export function failureOf(failures: Record<string, string>, nodeid: string): string | undefined {
  return failures[nodeid] ?? failures[nodeid.split('::')[0]!];
}
