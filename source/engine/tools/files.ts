import type { RepoIndex } from '../index/repo-index';
import { ToolInputError } from './tool';

/**
 * The workspace file a model means by `name`: an exact path, else the one file whose path ends
 * with it (`cart.py`, `shop/cart.py`). Ambiguous or unknown names are errors the model can act on.
 */
export function resolveFile(index: RepoIndex, name: string): string {
  const cleaned = name.trim().replace(/^\.\//, '').replace(/^\/+/, '').replace(/\\/g, '/');
  const rooted = cleaned.startsWith(index.root.replace(/^\/+/, '') + '/') ? cleaned.slice(index.root.length) : cleaned;
  if (index.file(rooted)) return rooted;
  const matches = index.files.map((f) => f.path).filter((path) => path === rooted || path.endsWith(`/${rooted}`));
  if (matches.length === 1) return matches[0]!;
  if (matches.length > 1) {
    throw new ToolInputError(`File name ${name} is ambiguous; it matches:\n${matches.slice(0, 20).map((m) => `- ${m}`).join('\n')}\nUse the full path.`);
  }
  throw new ToolInputError(`No Python file ${name} in the repository. Use a path relative to the repository root, as search results show it.`);
}
