/**
 * Fields that sessions saved by an older tenet wrote under another name, renamed as the log is
 * read, so that every reader sees one shape. Each entry says when and why the name changed.
 */

type Loose = Record<string, unknown>;

const isObject = (value: unknown): value is Loose =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Moves `from` to `to` in `object` unless `to` is already there (a newer writer's). */
function rename(object: unknown, from: string, to: string): void {
  if (!isObject(object) || !(from in object)) return;
  if (!(to in object)) object[to] = object[from];
  delete object[from];
}

/**
 * THM's one-pass benchmark mode was called "fork mode" (`--no-fork`, fields `fork`), a word that
 * also names `tenet fork`: it is twin mode now (`--two-pass` for the other), its report and
 * `thm.start` say `twins`, and the recorded settings `onePass`.
 */
const UPGRADES: Record<string, (event: Loose) => void> = {
  'thm.start': (event) => rename(event, 'fork', 'twins'),
  'thm.report': (event) => rename(event.report, 'fork', 'twins'),
  'session.start': (event) => rename(event.config, 'fork', 'onePass'),
};

/** Renames, in place, what an older tenet wrote under another name; other events are left as they are. */
export function upgradeEvent<E extends { type: string }>(event: E): E {
  UPGRADES[event.type]?.(event as unknown as Loose);
  return event;
}
