import { LOCAL, localConfinement } from '../sandbox/create-sandbox';
import { LocalSandbox } from '../sandbox/local-sandbox';
import { checkPython, choosePython, interpreterFolders, type PythonInfo } from '../task/interpreter';
import { Workspace } from '../workspace/workspace';

/**
 * A copy of a repository and the local sandbox over it, confined as a task's is (see openTask):
 * the tests run the repository's code, which must not see the checkout itself. With its
 * interpreter checked and shown. For the runs outside a task: bench make's reach pass, the reach
 * index's recording. The caller disposes of the sandbox, then the workspace.
 */
export async function confinedCopy(
  repoDir: string,
  options: { python?: string; reuse?: boolean },
): Promise<{ workspace: Workspace; sandbox: LocalSandbox; python: PythonInfo }> {
  const confined = localConfinement(LOCAL);
  const workspace = await Workspace.create(repoDir, options.reuse === undefined ? {} : { reuse: options.reuse });
  const sandbox = new LocalSandbox(
    workspace.root,
    process.env,
    [],
    confined && { ...confined, hidden: [...confined.hidden, workspace.repoDir] },
  );
  try {
    const python = await checkPython(sandbox, choosePython(repoDir, options.python), repoDir);
    sandbox.show(interpreterFolders(python, repoDir));
    return { workspace, sandbox, python };
  } catch (error) {
    await sandbox.dispose();
    await workspace.dispose();
    throw error;
  }
}
