import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { DeveloperTests, TestDesk } from '../engine/run/test-desk';
import type { Editor } from './editor';

/**
 * What came of the developer's writing in the THM review: THM's verdict on their tests, nothing
 * (left unchanged), or why it could not be done. `kept`: their text of a file that was put back
 * (it did not compile or import), which the key named opens again.
 */
export type WritingOutcome =
  | (DeveloperTests & { kept?: { path: string; key: 'n' | 'e' } })
  | { unchanged: true }
  | { problem: string };

/**
 * The editor on `file` holding the developer's `draft` (their text that did not compile) instead
 * of what it holds now; if the editor fails, the file is left as it was.
 */
async function editDraft(editor: Editor, file: string, draft: string): Promise<void> {
  const before = existsSync(file) ? readFileSync(file) : undefined;
  writeFileSync(file, draft);
  try {
    await editor.editFile(file);
  } catch (error) {
    if (before) writeFileSync(file, before);
    else rmSync(file, { force: true });
    throw error;
  }
}

/**
 * The developer's test files written in their editor during the THM review (`n`, `e`), run the
 * way THM runs the suite. A file that did not compile or import is put back by the desk; their
 * text of it is kept here, by path, and their editor opens it again next time.
 */
export class TestDrafts {
  private readonly drafts = new Map<string, string>();

  constructor(private readonly editor: Editor | undefined) {}

  /** `path` in the editor (from `template` for a new file), then its tests run on the stub. */
  async write(desk: TestDesk, path: string, template?: string): Promise<WritingOutcome> {
    const editor = this.editor;
    if (!editor) return { problem: 'there is no editor here' };
    // The developer's own text, when this file did not compile last time: they go on from it.
    const draft = this.drafts.get(path);
    try {
      const outcome = await desk.edit(
        path,
        (file) => (draft === undefined ? editor.editFile(file) : editDraft(editor, file, draft)),
        template,
      );
      if (!outcome) {
        // Back to the file as it was: nothing of theirs to keep.
        this.drafts.delete(path);
        return { unchanged: true };
      }
      for (const file of outcome.files) {
        if (outcome.rejected.some((r) => r.nodeid === file.path)) this.drafts.set(file.path, file.content);
        else this.drafts.delete(file.path);
      }
      return this.drafts.has(path) ? { ...outcome, kept: { path, key: template === undefined ? 'e' : 'n' } } : outcome;
    } catch (error) {
      return { problem: (error as Error).message };
    }
  }
}
