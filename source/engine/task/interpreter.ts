import { existsSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { TenetError } from '../errors';
import { within } from '../sandbox/allowed-view';
import { findProgram, isShimFolder, shimTarget } from '../sandbox/launcher';
import type { Sandbox } from '../sandbox/sandbox';
import { keepCheck, recalledCheck } from './check-answers';
import { compileHelpers } from './helper-bytecode';

export interface PythonChoice {
  executable: string;
  /** Where the choice came from, for messages: `--python`, `TENET_PYTHON`, the repo's venv, or the default. */
  origin: string;
}

export interface PythonInfo extends PythonChoice {
  /** What the run asked for (`python3`, the repository's venv, --python): a session records it, so a rerun elsewhere chooses alike. */
  asked: string;
  /** The interpreter's absolute path (sys.executable), for wrappers that must not find themselves on PATH. */
  path: string;
  version: string;
  pytestVersion: string;
  /**
   * The folders it reads its code from (sys.path, its user site folder, the folders its `.pth` files
   * name, its prefixes): a confined sandbox shows them read-only. Empty in a container.
   */
  dirs: string[];
  /** sys.prefix (a virtual environment's folder), where the check said. */
  prefix?: string;
}

/** `--python`, else `TENET_PYTHON`, else the repository's `.venv`/`venv`, else `python3`. */
export function choosePython(repoDir: string, flag?: string, env: NodeJS.ProcessEnv = process.env): PythonChoice {
  if (flag) return { executable: fromHere(flag), origin: '--python' };
  if (env.TENET_PYTHON) return { executable: fromHere(env.TENET_PYTHON), origin: 'TENET_PYTHON' };
  for (const venv of ['.venv', 'venv']) {
    for (const bin of ['bin/python', 'Scripts/python.exe']) {
      const candidate = join(repoDir, venv, bin);
      if (existsSync(candidate)) return { executable: candidate, origin: `the repository's ${venv}` };
    }
  }
  return { executable: 'python3', origin: 'the default' };
}

/**
 * A relative path (`./venv/bin/python`) means from where tenet was started; a bare name is looked
 * up on PATH. Python runs in other folders (a scratch one for the check, the workspace for tests).
 */
function fromHere(executable: string): string {
  return executable.includes('/') && !isAbsolute(executable) ? resolve(executable) : executable;
}

/**
 * pytest's version from its installed metadata: a tenth of a second sooner than importing it, on
 * the way to every run's first test. A pytest found without metadata (a checkout on PYTHONPATH)
 * is imported; one that is installed but does not import says so in the run's first pytest.
 */
const PROBE = [
  'import json, os, sys',
  'info = {"version": sys.version.split()[0], "path": sys.executable, "prefix": sys.prefix, "tag": sys.implementation.cache_tag}',
  // Where its packages are: what a kept check depends on (see check-answers.ts), and what a
  // confined sandbox shows it. The folders its .pth files name are listed whether this check
  // sees them or not: a folder a confined check cannot see is missing from its sys.path.
  'info["dirs"] = [os.path.abspath(p) for p in sys.path if p and os.path.abspath(p) != os.getcwd()]',
  'info["dirs"] += [p for p in {sys.prefix, sys.base_prefix, sys.exec_prefix} if p]',
  'try:',
  '    import site',
  '    user = site.getusersitepackages()',
  '    info["dirs"].append(user)',
  '    for folder in [*site.getsitepackages(), user]:',
  '        try:',
  '            names = sorted(n for n in os.listdir(folder) if n.endswith(".pth"))',
  '        except OSError:',
  '            continue',
  '        for name in names:',
  '            try:',
  '                lines = open(os.path.join(folder, name), encoding="utf-8", errors="replace").read().splitlines()',
  '            except OSError:',
  '                continue',
  '            for line in lines:',
  '                line = line.strip()',
  '                if line and not line.startswith(("#", "import ", "import\t")):',
  '                    info["dirs"].append(os.path.abspath(os.path.join(folder, line)))',
  'except Exception:',
  '    pass',
  'try:',
  '    import importlib.util',
  '    if importlib.util.find_spec("pytest") is None:',
  '        raise ModuleNotFoundError("No module named \'pytest\'")',
  '    try:',
  '        from importlib.metadata import version',
  '        info["pytest"] = version("pytest")',
  '    except Exception:',
  '        import pytest',
  '        info["pytest"] = pytest.__version__',
  'except Exception as error:',
  '    info["pytestError"] = repr(error)',
  'print(json.dumps(info))',
].join('\n');

/** Checks that the interpreter runs and has pytest ≥ 7, with an error that says how to fix it. */
export async function checkPython(sandbox: Sandbox, choice: PythonChoice, repoDir?: string): Promise<PythonInfo> {
  // Every pytest, tool and check starts the interpreter again: through a shim, each start would pay
  // the version manager's lookup once more (pyenv's: about a second). The shim is asked once, from
  // the repository (where its version file is), and everything runs the interpreter it names.
  // The interpreter's file on this machine (undefined in a container: the check asks there).
  const file = sandbox.kind === 'local' ? findProgram(choice.executable, sandbox.env.PATH, process.cwd()) : undefined;
  const shim = file && isShimFolder(dirname(file)) ? file : undefined;
  const versionDir = repoDir ?? process.cwd();
  const [real] = await Promise.all([
    shim ? shimTarget(shim, versionDir, sandbox.env) : undefined,
    sandbox.prepare?.(versionDir),
  ]);
  const chosen = `${choice.executable} (from ${choice.origin})`;
  // A local interpreter's check is kept between runs (see check-answers.ts); only one that passed.
  // Not a shim's that did not say which interpreter it runs: what its check found may change
  // with no file of its own changing.
  const program = shim ? real : file;
  const recalled = program ? recalledCheck(program, sandbox.env) : undefined;
  let info: ProbeInfo = recalled ?? (await runCheck(sandbox, real ?? choice.executable, chosen));
  // A confined check sees the interpreter's own installation: a folder its .pth files or user
  // site name elsewhere was missing from its sys.path. Shown, the check is made again (once).
  const unseen = recalled ? [] : (sandbox.unseen?.(info.dirs ?? [], real ?? file) ?? []);
  if (unseen.length) {
    sandbox.show?.(unseen);
    info = await runCheck(sandbox, real ?? choice.executable, chosen);
  }
  if (!info.pytest) {
    throw new TenetError(
      `pytest is not installed for ${chosen}${info.pytestError ? ` (${info.pytestError})` : ''}.`,
      `${choice.executable} -m pip install pytest${sandbox.kind === 'local' && sandbox.confined ? CONFINED_HINT : ''}`,
    );
  }
  const major = Number(info.pytest.split('.')[0]);
  if (!(major >= 7)) {
    throw new TenetError(
      `pytest ${info.pytest} is too old for tenet (needs 7 or newer).`,
      `${choice.executable} -m pip install -U pytest`,
    );
  }
  // The judge's tripwire is an audit hook (PEP 578): Python 3.8 and later.
  const [pyMajor, pyMinor] = (info.version ?? '').split('.').map(Number);
  if (pyMajor === 3 && pyMinor !== undefined && pyMinor < 8)
    throw new TenetError(
      `Python ${info.version} is too old for tenet: it judges submitted code with an audit hook (PEP 578), which Python has from 3.8.`,
      'pass --python with Python 3.8 or newer',
    );
  if (program && !recalled && info.version && info.path && info.dirs)
    keepCheck(program, sandbox.env, {
      version: info.version,
      path: info.path,
      pytest: info.pytest,
      dirs: info.dirs,
      ...(info.prefix ? { prefix: info.prefix } : {}),
      ...(info.tag ? { tag: info.tag } : {}),
    });
  // tenet's own Python, compiled for this interpreter (once: later runs find it compiled). That
  // runs it unconfined: never one of the repository's own (a `.venv/bin/python` it ships is its
  // code), and by its real file, so that no pyvenv.cfg of the repository says where its stdlib is.
  const compiler = program ? realOutside(program, repoDir) : undefined;
  if (compiler && info.tag) compileHelpers(compiler, info.tag);
  const path = info.path || choice.executable;
  const executable = info.path && shim ? info.path : choice.executable;
  return {
    ...choice,
    asked: choice.executable,
    executable,
    path,
    version: info.version ?? '?',
    pytestVersion: info.pytest,
    dirs: sandbox.kind === 'local' ? [...new Set(info.dirs ?? [])] : [],
    ...(info.prefix ? { prefix: info.prefix } : {}),
  };
}

/**
 * The folders a confined process is shown for the interpreter: those it reads its code from, but
 * not the developer's checkout (an editable install's folder: the workspace stands for it), unless
 * the interpreter is installed there (the repository's `.venv`).
 */
export function interpreterFolders(python: PythonInfo, repoDir: string): string[] {
  const prefix = python.prefix;
  return python.dirs.filter((dir) => !within(dir, repoDir) || (prefix !== undefined && within(dir, prefix)));
}

/** Said where a confined interpreter fails: what it needs may be outside what the sandbox shows. */
const CONFINED_HINT =
  '; if it is installed in a folder the confined sandbox does not show, show it with --read PATH (or readPaths in ~/.config/tenet/config.json)';

/** A library the dynamic linker could not find: where the confined interpreter needs a folder it is not shown. */
function missingShown(said: string): string {
  const library = /error while loading shared libraries: ([^:]+):/.exec(said)?.[1];
  return library ? ` (it needs ${library}: show its folder with --read)` : '';
}

/** The folder of a file a shell or the dynamic linker could not find, as it said (`exec: /opt/py/bin/python: not found`). */
function missingPath(said: string): string | undefined {
  const file = /(\/[^\s:'"]+)'?:? (?:not found|No such file or directory)/.exec(said)?.[1];
  return file ? dirname(file) : undefined;
}

/** The interpreter's file, links followed, unless it is in the repository (or none was said). */
function realOutside(program: string, repoDir: string | undefined): string | undefined {
  if (!repoDir) return undefined;
  try {
    const real = realpathSync(program);
    return within(real, realpathSync(repoDir)) ? undefined : real;
  } catch {
    return undefined;
  }
}

interface ProbeInfo {
  version?: string;
  /** sys.implementation.cache_tag: how its bytecode files are named (`cpython-311`). */
  tag?: string;
  path?: string;
  pytest?: string;
  pytestError?: string;
  dirs?: string[];
  prefix?: string;
}

/** Runs the check itself: what the interpreter says, or an error that says how to fix it. */
async function runCheck(sandbox: Sandbox, executable: string, chosen: string): Promise<ProbeInfo> {
  // No bytecode from this check anywhere (PYTHONPATH may name the checkout).
  const result = await sandbox.run([executable, '-c', PROBE], {
    timeoutMs: 60_000,
    env: { PYTHONDONTWRITEBYTECODE: '1' },
  });
  const confined = sandbox.kind === 'local' && sandbox.confined;
  const hint = confined ? CONFINED_HINT : '';
  const said = (result.stderr || result.stdout).trim().slice(0, 500);
  // There on this machine, but not started in the sandbox: something it runs is not shown there.
  if (confined && result.exitCode === 127 && findProgram(executable, sandbox.env.PATH, process.cwd())) {
    const missing = missingPath(said);
    throw new TenetError(
      `Python interpreter ${chosen} could not start in the confined sandbox${said ? ` (${said.split('\n')[0]})` : ''}.`,
      missing
        ? `show ${missing} to the sandbox with --read ${missing} (or readPaths in ~/.config/tenet/config.json)`
        : `show what it needs with --read PATH (or readPaths in ~/.config/tenet/config.json), or pass --python with another interpreter`,
    );
  }
  if (result.error || result.exitCode === 127) {
    throw new TenetError(
      `Python interpreter ${chosen} was not found.`,
      `pass --python /path/to/python or set TENET_PYTHON to the interpreter that runs your tests${hint}`,
    );
  }
  try {
    return JSON.parse(result.stdout.trim().split('\n').pop() ?? '') as ProbeInfo;
  } catch {
    throw new TenetError(
      `Python interpreter ${chosen} did not run${said ? `: ${said}` : `: it exited with code ${result.exitCode ?? '?'} and printed nothing (is it a Python interpreter?)`}`,
      `pass --python with a working Python 3 interpreter${missingShown(said)}${hint}`,
    );
  }
}
