import { missingScopePath } from './missing-scope-path';

const UNRECOGNIZED = /unrecognized arguments: (.+)/;

/**
 * What to do when pytest refused the scope (`--tests …`) before running a test, from what it
 * said: the paths it did not find that the repository has under another folder, or the options
 * it does not know. The usual cause of the latter is tenet's own options written after
 * `--tests`, which hands everything after it to pytest.
 */
export function scopeFix(root: string, problems: readonly string[]): string {
  const path = missingScopePath(root, problems);
  if (path?.closest.length) {
    return `pytest found no ${path.missing}; paths are from the repository's root: ${path.closest.map((p) => `--tests ${p}`).join(', or ')}`;
  }
  const unknown = problems.map((p) => UNRECOGNIZED.exec(p)).find((m) => m);
  const options = unknown?.[1]?.split(/\s+/).filter((word) => word.startsWith('-'));
  if (options?.length) {
    return `pytest does not know ${options.join(', ')}. Everything after --tests goes to pytest: tenet's own options go before --tests`;
  }
  return 'check the --tests arguments and that the suite runs with plain pytest in the repository';
}
