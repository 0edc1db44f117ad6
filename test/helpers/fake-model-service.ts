/**
 * The fake model server as a Swarm service (bundled by the swarm test and run with the runner
 * image's Node): an OpenAI-compatible oracle for a set of benchmark tasks. Each request is answered
 * with `submit_implementation` of the ground truth of the task it is about (found by its target in
 * the task prompt), so any number of tasks can ask it at once, in any order. A request
 * without the expected key is refused (401): the key must have reached the task.
 *
 * argv: TASKS_FILE KEY_FILE PORT
 */
import { readFileSync } from 'node:fs';
import { startFakeModelServer } from './fake-model-server';

const [tasksFile, keyFile, port] = process.argv.slice(2) as [string, string, string];
const tasks = readFileSync(tasksFile, 'utf8')
  .split('\n')
  .filter((line) => line.trim())
  .map((line) => JSON.parse(line) as { target_module_path: string; function_name: string; full_function: string });
const key = readFileSync(keyFile, 'utf8').trim();

function firstUserText(body: Record<string, unknown>): string {
  const messages = (body.messages ?? []) as { role: string; content: unknown }[];
  const first = messages.find((m) => m.role === 'user');
  return typeof first?.content === 'string' ? first.content : JSON.stringify(first?.content ?? '');
}

const server = await startFakeModelServer([], {
  listen: { host: '0.0.0.0', port: Number(port) },
  turnFor(body, headers) {
    if (headers.authorization !== `Bearer ${key}`)
      return { status: 401, message: 'Incorrect API key provided', errorType: 'invalid_api_key' };
    // The task prompt's first line (prompts/task.md) names the target: "Implement `QUALNAME` in `FILE`."
    const text = firstUserText(body);
    const task = tasks.find((t) => text.includes(`Implement \`${t.function_name}\` in \`${t.target_module_path}\``));
    if (!task) return { say: 'I do not know this task.' };
    return { calls: [{ name: 'submit_implementation', arguments: { code: task.full_function } }] };
  },
});
process.stdout.write(`fake model listening at ${server.url}\n`);
