/**
 * The real suites the differential check draws targets from: packages that ship their tests in
 * python3's site-packages (copied, as a developer's checkout would be), a layout fixture of
 * tenet's own, or any repository given with --repo.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Suite {
  name: string;
  /** Why this suite is in the sample: the shape of suite it stands for. */
  shape: string;
  /** Lays the repository out in an empty folder. */
  make(into: string): void;
  /** pytest arguments of the reach pass, which finds the tests that call each candidate. */
  reach: string[];
  /** Whether Debian's Python in tenet's default image can run this suite (its dependencies are there). */
  docker: boolean;
  /** Each target's scope is the whole reach scope (a small suite), not only the files of the tests that reached it. */
  wholeScope?: boolean;
  /** Only targets in files whose path matches (the shape this suite stands for). */
  files?: RegExp;
  /** In the fixed sample CI runs: how many of its targets (each costs CI about half a minute). */
  ci?: number;
  /** The smallest body drawn as a target (default bench make's); the stub suite's functions are one-liners. */
  minStatements?: number;
  /** Stub mode's split of the failing tests must be exactly plain pytest's (see stubAgainstOracle). */
  exactStubSplit?: boolean;
  /** The interpreter the suite needs (one with its pytest plugins); undefined when there is none here. */
  python?: () => string | undefined;
  /** What to install when `python` finds none. */
  pythonHint?: string;
  /**
   * Run with the interpreter's own pytest plugins in tenet's tests, which leave them out for the
   * fixtures (test/helpers/pytest-plugins.ts): a real package, run as its users run it, or a suite about plugins.
   */
  interpreterPlugins?: boolean;
}

/** The first interpreter that imports all of `modules`: Debian's python3 with its pytest plugins, say. */
function pythonWith(modules: string[]): () => string | undefined {
  return () =>
    [process.env.TENET_PLUGINS_PYTHON, '/usr/bin/python3.11', '/usr/bin/python3', 'python3'].find(
      (python) =>
        !!python && spawnSync(python, ['-c', `import ${modules.join(', ')}`], { stdio: 'ignore' }).status === 0,
    );
}
const PLUGINS_HINT =
  'no python3 with pytest-xdist and pytest-timeout: apt-get install python3-pytest-xdist python3-pytest-timeout';

function installedPackage(name: string): (into: string) => void {
  return (into) => {
    const source = execFileSync('python3', ['-c', `import ${name}; print(${name}.__path__[0])`], {
      encoding: 'utf8',
    }).trim();
    // With its bytecode, and the sources' times that the bytecode is checked against: every run on
    // the copy (each mode's, each oracle's) imports the package without compiling it again (sympy:
    // a CPU-second a process). A file a run changes is newer than its bytecode, which is then not used.
    cpSync(source, join(into, name), { recursive: true, preserveTimestamps: true });
  };
}

const FIXTURES = join(import.meta.dirname, '..', 'test', 'fixtures');

export const SUITES: Suite[] = [
  {
    name: 'networkx',
    shape: 'many test files, a dispatcher decorator on every algorithm (_dispatchable), generated argmap code',
    make: installedPackage('networkx'),
    reach: [
      'networkx/algorithms/tests',
      'networkx/classes/tests',
      'networkx/algorithms/shortest_paths/tests',
      'networkx/algorithms/traversal/tests',
    ],
    docker: true,
    interpreterPlugins: true,
  },
  {
    name: 'networkx-strict',
    shape: 'networkx under `filterwarnings = error` (as click, flask and most pallets projects configure pytest)',
    make: (into) => {
      installedPackage('networkx')(into);
      writeFileSync(join(into, 'pytest.ini'), '[pytest]\nfilterwarnings =\n    error\n');
    },
    reach: [
      'networkx/algorithms/tree/tests',
      'networkx/algorithms/components/tests',
      'networkx/algorithms/isomorphism/tests/test_isomorphism.py',
      'networkx/generators/tests',
    ],
    docker: true,
    interpreterPlugins: true,
  },
  {
    name: 'sympy-printing',
    shape: 'one large package, a dispatcher (Printer._print) between every use and each _print_X method',
    make: installedPackage('sympy'),
    reach: [
      'sympy/printing/tests/test_str.py',
      'sympy/printing/tests/test_repr.py',
      'sympy/printing/tests/test_python.py',
    ],
    docker: false,
    interpreterPlugins: true,
    files: /^sympy\/printing\//,
    ci: 4,
  },
  {
    name: 'jsonschema',
    shape: 'unittest.TestCase classes with mixins that several classes inherit',
    make: installedPackage('jsonschema'),
    reach: ['jsonschema/tests', '--ignore=jsonschema/tests/test_jsonschema_test_suite.py'],
    docker: false,
    interpreterPlugins: true,
    ci: 4,
  },
  {
    name: 'nslayout',
    shape:
      'a src layout with a namespace subpackage (a folder without __init__.py inside the package, as flask/sansio), filterwarnings = error',
    make: (into) => cpSync(join(FIXTURES, 'nslayout'), into, { recursive: true }),
    reach: [],
    docker: true,
    wholeScope: true,
    ci: 4,
  },
  {
    name: 'strictwarnings',
    shape: 'filterwarnings = error with enough tests for two lanes per world (click, flask)',
    make: (into) => cpSync(join(FIXTURES, 'strictwarnings'), into, { recursive: true }),
    reach: [],
    docker: true,
    wholeScope: true,
    ci: 2,
  },
  {
    name: 'concurrent',
    shape:
      'tests that reach the target from threads they start, a thread pool, a timer, asyncio tasks, a loop callback and sort keys',
    make: (into) => cpSync(join(FIXTURES, 'concurrent'), into, { recursive: true }),
    reach: [],
    docker: true,
    wholeScope: true,
    ci: 2,
  },
  {
    name: 'xdist-addopts',
    shape: "a project whose addopts run pytest-xdist's workers (-n 2 --dist loadfile), as many real ones do",
    make: (into) => cpSync(join(FIXTURES, 'xdistopts'), into, { recursive: true }),
    reach: [],
    docker: false,
    interpreterPlugins: true,
    wholeScope: true,
    python: pythonWith(['pytest', 'xdist', 'pytest_timeout']),
    pythonHint: PLUGINS_HINT,
  },
  {
    name: 'project-timeout',
    shape:
      "pytest-timeout's limit in the ini file (timeout = 1): a retry loop that spins blank, a test slower than the limit",
    make: (into) => cpSync(join(FIXTURES, 'projecttimeout'), into, { recursive: true }),
    reach: [],
    docker: false,
    interpreterPlugins: true,
    wholeScope: true,
    python: pythonWith(['pytest', 'xdist', 'pytest_timeout']),
    pythonHint: PLUGINS_HINT,
    minStatements: 2,
  },
  {
    name: 'stubs',
    shape:
      'TDD in progress (stub mode): other stubs in the same file, the same class and another file, a helper with a bug of its own, a stubbed __repr__ that reports of failed assertions call',
    make: (into) => cpSync(join(FIXTURES, 'stubgeo'), into, { recursive: true }),
    reach: [],
    docker: true,
    wholeScope: true,
    minStatements: 1,
    exactStubSplit: true,
  },
];

/** Any repository: copied as it is; the reach pass runs the scope given (default: its pytest configuration). */
export function repositorySuite(repo: string, reach: string[]): Suite {
  return {
    name: repo,
    shape: 'a repository given with --repo',
    make: (into) =>
      cpSync(repo, into, {
        recursive: true,
        filter: (path) => !/(^|\/)(\.git|\.tox|\.venv|venv|__pycache__|\.pytest_cache)$/.test(path),
      }),
    reach,
    docker: false,
  };
}

export const DOCKER_IMAGE = 'tenet-python:bookworm';

/** Whether the Docker sandbox can be used here: an engine that answers and tenet's default image. */
export function dockerReady(): boolean {
  return spawnSync('docker', ['image', 'inspect', DOCKER_IMAGE], { stdio: 'ignore' }).status === 0;
}
