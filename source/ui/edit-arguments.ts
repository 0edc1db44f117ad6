import { prettyArguments } from '../engine/agent/preview';
import { codeOf, withCode } from './components/code-arguments';
import { editText, type Editor } from './editor';

const withNewline = (text: string) => (text.endsWith('\n') ? text : `${text}\n`);

/**
 * `e` at a tool call: its arguments in the developer's editor (pretty JSON). The arguments to run
 * it with (compact JSON), or why not: they are not JSON, or the editor failed.
 */
export async function editArguments(
  editor: Editor | undefined,
  args: string,
): Promise<{ args: string } | { problem: string }> {
  if (!editor) return { problem: 'no editor here' };
  // A submission's code is edited as code, in a .py file (the editor's Python mode); the other arguments stay.
  const code = codeOf(args);
  let text: string;
  try {
    text = await editText(
      editor,
      code ? withNewline(code.code) : `${prettyArguments(args)}\n`,
      code ? 'submission.py' : 'arguments.json',
    );
  } catch (error) {
    return { problem: (error as Error).message };
  }
  if (code) {
    // The newline an editor adds at the end of a file is not an edit of the model's code.
    const edited = !code.code.endsWith('\n') && text.endsWith('\n') ? text.slice(0, -1) : text;
    return { args: edited === code.code ? args : withCode(args, edited) };
  }
  try {
    return { args: JSON.stringify(JSON.parse(text)) };
  } catch (error) {
    return { problem: `the arguments are not JSON (${(error as Error).message})` };
  }
}
