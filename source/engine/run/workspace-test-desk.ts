import { existsSync } from 'node:fs';
import { posix } from 'node:path';
import type { EngineEvent } from '../events';
import { listDefinitions } from '../python-source/definitions';
import { importRoots } from '../python-source/import-roots';
import { parsePython } from '../python-source/parser';
import { moduleSyntaxError } from '../python-source/syntax-error';
import { decodeSource } from '../python-source/source-text';
import { brokenModules, type ThmFailingTest, type ThmReport } from '../protocol/thm-report';
import { stoppedWords } from '../phrase-book';
import { mergeDeveloperTests, testQualname } from '../thm/developer-tests';
import { TEST_FILE } from '../workspace/copy-tree';
import { runThm, THM_DEFAULTS } from '../thm/run-thm';
import { unlinkInside } from '../workspace/inside';
import type { DeveloperTests, GivenTestFile, TestDesk, TestFile } from './test-desk';
import type { TaskRun } from './run-context';

/** Why a test of the developer's is kept out, by what THM saw of it; `unimplemented`: the stub, or in benchmark mode the blanked body. */
const why = (unimplemented: string): Record<string, string> => ({
  passed: `it passes on ${unimplemented}, so it says nothing about the function (does it call the target and check what it returns?)`,
  xpassed: `it passes on ${unimplemented} (marked xfail), so it says nothing about the function`,
  skipped: 'pytest skipped it',
  xfailed: 'it is marked xfail',
});

/** The test functions of a module, by qualname, with their source: what tells a changed test from one left alone. */
async function testFunctions(text: string | undefined): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  if (text === undefined) return found;
  const tree = await parsePython(text);
  try {
    for (const d of listDefinitions(tree)) {
      if (d.kind === 'function' && d.name.startsWith('test')) found.set(d.qualname, d.outer.text);
    }
  } finally {
    tree.delete();
  }
  return found;
}

/**
 * Where the developer writes tests before approving THM's choice (the THM review's `n` and `e`,
 * `--add-tests`). Each file they wrote or changed is put in the workspace and run the way THM runs
 * the suite: a test of theirs (new, or changed) that fails on the stub — and, in benchmark mode,
 * passes on the original code — joins THM's failing tests, so the agent sees it when it is
 * selected and the evaluation counts it; any other is kept out with the reason. A file that no
 * longer imports is put back as it was. Every round is recorded (`tests.added`, with the files'
 * content), so resume, rerun and fork write the same files again.
 */
export class WorkspaceTestDesk implements TestDesk {
  /** THM's report with every accepted test of the developer's in it. */
  report: ThmReport;
  /** The developer's tests that count now, in the order they were accepted. */
  readonly added: string[] = [];

  constructor(
    private readonly run: TaskRun,
    report: ThmReport,
  ) {
    this.report = report;
  }

  /** The workspace folder (the editor opens files there). */
  get root(): string {
    return this.run.task.workspace.root;
  }

  /** Where the repository's failing tests live: the folder of the first one (else the root). */
  private testFolder(): string {
    const first = this.report.failing.find((f) => f.nodeid.includes('::'))?.nodeid.split('::')[0];
    return first ? posix.dirname(first) : '.';
  }

  /**
   * Where a test file given by name (not from the repository) goes: beside the repository's tests, named as pytest collects by
   * default (`mine.py` becomes `test_mine.py`). THM names the file on pytest's command line and
   * would take it whatever its name; the validations name only the scope, and would not.
   */
  placeFor(name: string): string {
    const base = posix.basename(name);
    return posix.normalize(posix.join(this.testFolder(), TEST_FILE.test(base) ? base : `test_${base}`));
  }

  /** A path for a new test file beside the repository's tests that is not taken, and what it starts with. */
  newFile(): { path: string; template: string } {
    let path = this.placeFor('test_by_developer.py');
    for (let n = 2; existsSync(this.run.task.workspace.path(path)); n++)
      path = this.placeFor(`test_by_developer_${n}.py`);
    return { path, template: this.template() };
  }

  private template(): string {
    const target = this.run.task.target;
    const roots = importRoots(this.root, target.file);
    const root = roots.find((r) => r && target.file.startsWith(`${r}/`)) ?? '';
    const module = target.file
      .slice(root ? root.length + 1 : 0)
      .replace(/\.py$/, '')
      .replace(/\/__init__$/, '')
      .split('/')
      .join('.');
    const name = target.qualname.split('.')[0]!;
    const world = target.mode === 'blank' ? 'the blanked function (and pass on the original)' : 'the stub';
    return [
      `# Tests of ${target.id}, written by you. tenet keeps the ones that fail on ${world}:`,
      '# they join the tests THM found, the agent sees them, and the evaluation counts them.',
      `from ${module} import ${name}`,
      '',
      '',
      '# def test_…():',
      `#     assert ${target.qualname}(…) == …`,
      '',
    ].join('\n');
  }

  private async read(path: string): Promise<string | undefined> {
    try {
      return decodeSource(await this.run.task.workspace.read(path)).text;
    } catch {
      return undefined;
    }
  }

  private async write(path: string, content: string): Promise<void> {
    await this.run.task.workspace.write(path, content);
    await this.run.task.sandbox.syncFile(path);
  }

  /**
   * The developer edits `path` in the workspace (`edit` opens their editor on its absolute path);
   * a new file starts from `template`. Undefined when nothing changed.
   */
  async edit(
    path: string,
    edit: (absolute: string) => Promise<void>,
    template?: string,
  ): Promise<DeveloperTests | undefined> {
    const before = await this.read(path);
    if (before === undefined && template !== undefined) await this.run.task.workspace.write(path, template);
    await edit(this.run.task.workspace.path(path));
    const after = await this.read(path);
    if (after === (before ?? template)) {
      // A new file left as it was: nothing written, nothing to leave behind.
      if (before === undefined) unlinkInside(this.root, path);
      return undefined;
    }
    return this.collect([{ path, before }]);
  }

  /** A resumed session's files, written again as it recorded them (their outcome is in its report). */
  async restore(files: readonly TestFile[]): Promise<void> {
    for (const file of files) await this.write(file.path, file.content);
  }

  /** `--add-tests` files, each in its place. */
  addGiven(files: readonly GivenTestFile[]): Promise<DeveloperTests> {
    return this.add(files.map((f) => ({ path: f.path ?? this.placeFor(f.name), content: f.content })));
  }

  /** Files written whole (`--add-tests`, or a recorded session's): put in the workspace, then collected. */
  async add(files: readonly TestFile[]): Promise<DeveloperTests> {
    const changes: { path: string; before: string | undefined }[] = [];
    for (const file of files) {
      changes.push({ path: file.path, before: await this.read(file.path) });
      await this.write(file.path, file.content);
    }
    return this.collect(changes);
  }

  private async collect(changes: readonly { path: string; before: string | undefined }[]): Promise<DeveloperTests> {
    const files: TestFile[] = [];
    const mine = new Map<string, Set<string>>();
    const deleted: string[] = [];
    for (const change of changes) {
      const content = (await this.read(change.path)) ?? '';
      files.push({ path: change.path, content });
      await this.run.task.sandbox.syncFile(change.path);
      const [before, after] = [
        await testFunctions(change.before).catch(() => new Map<string, string>()),
        await testFunctions(content).catch(() => new Map<string, string>()),
      ];
      mine.set(change.path, new Set([...after].filter(([q, text]) => before.get(q) !== text).map(([q]) => q)));
      for (const q of before.keys()) if (!after.has(q)) deleted.push(`${change.path}::${q}`);
    }
    const isMine = (nodeid: string) => mine.get(nodeid.split('::')[0]!)?.has(testQualname(nodeid)) ?? false;

    // A file that does not compile is kept out whole, with Python's words for where it breaks.
    const rejected: { nodeid: string; reason: string }[] = [];
    for (const file of files) {
      const syntax = await moduleSyntaxError(file.content, this.run.task);
      if (syntax)
        rejected.push({
          nodeid: file.path,
          reason: `the file does not compile (${syntax.split('\n')[0]}); it was put back as it was`,
        });
    }
    const outcomes = new Map<string, string>();
    const record = (event: EngineEvent) => {
      if (event.type === 'thm.test') outcomes.set(event.nodeid, event.outcome);
    };
    const accepted: ThmFailingTest[] = [];
    const compiled = files.filter((f) => !rejected.some((r) => r.nodeid === f.path));
    let found: ThmReport | undefined;
    try {
      const { options } = this.run;
      if (compiled.length)
        found = await runThm(this.run.task, {
          ...THM_DEFAULTS,
          T: Infinity,
          testArgs: compiled.map((f) => f.path),
          testTimeoutSec: options.testTimeoutSec,
          timeoutSec: options.thmTimeoutSec,
          jobs: 1,
          onePass: options.onePass,
          caller: options.caller,
          // Files the developer added: no index knows them.
          reach: false,
          emit: record,
        });
    } catch (error) {
      for (const file of compiled)
        rejected.push({ nodeid: file.path, reason: `THM could not run it: ${(error as Error).message}` });
    }
    if (found) {
      // A file pytest cannot import is a failing entry of its own (or, failing on the original too, an already failing one).
      const isFile = (nodeid: string) => files.some((f) => f.path === nodeid);
      for (const test of found.failing) {
        if (test.outcome === 'collection' && isFile(test.nodeid)) {
          rejected.push({
            nodeid: test.nodeid,
            reason: `the file does not import (${test.message.split('\n')[0]}); it was put back as it was`,
          });
        } else if (isMine(test.nodeid)) accepted.push(test);
      }
      // A file none of whose tests pytest saw did not import (pytest reports no test of it then).
      const seenIn = (path: string) =>
        [...outcomes.keys(), ...found!.failing.map((t) => t.nodeid), ...found!.alreadyFailing].some(
          (id) => id === path || id.startsWith(`${path}::`),
        );
      for (const file of compiled)
        if (!seenIn(file.path) && (mine.get(file.path)?.size ?? 0) > 0 && !rejected.some((r) => r.nodeid === file.path))
          rejected.push({
            nodeid: file.path,
            reason: 'pytest collected none of its tests (does it import?); it was put back as it was',
          });
      // Benchmark mode names a file that does not import on the original code either among the
      // already failing; stub mode names one whose import never called the target as broken.
      for (const nodeid of [...new Set([...found.alreadyFailing, ...brokenModules(found)])].filter(isFile))
        if (!rejected.some((r) => r.nodeid === nodeid))
          rejected.push({
            nodeid,
            reason: 'the file does not import (pytest could not collect it); it was put back as it was',
          });
      for (const nodeid of found.alreadyFailing)
        if (isMine(nodeid))
          rejected.push({
            nodeid,
            reason: 'it fails on the original code too: in benchmark mode a test must pass on the function as it was',
          });
      const elsewhere = new Map((found.otherFailures ?? []).map((f) => [f.nodeid, f]));
      for (const [nodeid, outcome] of outcomes) {
        if (isMine(nodeid) && !accepted.some((t) => t.nodeid === nodeid) && !found.alreadyFailing.includes(nodeid)) {
          const other = elsewhere.get(nodeid);
          rejected.push({
            nodeid,
            reason: other
              ? `it fails without reaching the target (it ${stoppedWords(other)}), so it cannot tell whether the target works`
              : (why(this.report.mode === 'blank' ? 'the blanked body' : 'the stub')[outcome] ??
                `pytest says ${outcome}`),
          });
        }
      }
      for (const [path, qualnames] of mine) {
        for (const q of qualnames) {
          const seen = (id: string) => id.startsWith(`${path}::`) && testQualname(id) === q;
          if (
            ![...outcomes.keys()].some(seen) &&
            !found.failing.some((t) => seen(t.nodeid)) &&
            !found.alreadyFailing.some(seen) &&
            !rejected.some((r) => r.nodeid === path)
          )
            rejected.push({
              nodeid: `${path}::${q.split('.').join('::')}`,
              reason: 'pytest did not collect it (is it named test_… in a file pytest collects?)',
            });
        }
      }
    }
    // A file that no longer imports would take the repository's tests in it down: put it back.
    for (const broken of rejected.filter((r) => files.some((f) => f.path === r.nodeid))) {
      const change = changes.find((c) => c.path === broken.nodeid)!;
      if (change.before === undefined) unlinkInside(this.root, change.path);
      else await this.write(change.path, change.before);
    }
    const brokenFiles = new Set(rejected.map((r) => r.nodeid).filter((id) => files.some((f) => f.path === id)));
    // Failing tests of these files that the developer changed or deleted, and that no longer fail, count no more.
    const removed = this.report.failing
      .map((t) => t.nodeid)
      .filter(
        (id) =>
          !brokenFiles.has(id.split('::')[0]!) &&
          (isMine(id) ||
            deleted.some(
              (d) => `${d.split('::')[0]}::${testQualname(d)}` === `${id.split('::')[0]}::${testQualname(id)}`,
            )) &&
          !accepted.some((t) => t.nodeid === id),
      );
    const outcome: DeveloperTests = { files, accepted, rejected, removed };
    this.report = mergeDeveloperTests(this.report, outcome);
    for (const id of removed) {
      const at = this.added.indexOf(id);
      if (at !== -1) this.added.splice(at, 1);
    }
    for (const test of accepted) if (!this.added.includes(test.nodeid)) this.added.push(test.nodeid);
    this.run.emit({ type: 'tests.added', ...outcome });
    return outcome;
  }
}
