import type { EventOf } from '../events';
import type { ThmReport } from '../protocol/thm-report';

/** What one round of the developer's writing came to (the `tests.added` event, without its type). */
export type DeveloperTests = Omit<EventOf<'tests.added'>, 'type'>;

/** A file of the developer's, as they wrote it (relative to the workspace). */
export interface TestFile {
  path: string;
  content: string;
}

/** A test file given whole (`--add-tests`): where it goes in the workspace (undefined: beside the repository's tests, as `name`), and its text. */
export interface GivenTestFile {
  path?: string;
  name: string;
  content: string;
}

/**
 * Where the developer writes tests before approving THM's choice, as the pilots see it (the THM
 * review's `n` and `e`, `--add-tests`, a recorded session's): see workspace-test-desk.ts for how their tests
 * are checked.
 */
export interface TestDesk {
  /** THM's report with every accepted test of the developer's in it. */
  readonly report: ThmReport;
  /** The developer's tests that count now. */
  readonly added: readonly string[];
  /** The workspace folder (the editor opens files there). */
  readonly root: string;
  placeFor(name: string): string;
  newFile(): { path: string; template: string };
  edit(path: string, edit: (absolute: string) => Promise<void>, template?: string): Promise<DeveloperTests | undefined>;
  add(files: readonly TestFile[]): Promise<DeveloperTests>;
  addGiven(files: readonly GivenTestFile[]): Promise<DeveloperTests>;
}
