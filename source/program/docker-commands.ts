import type { Command } from 'commander';
import { sessionsDirOption, type Invocation } from './flags';

/** The Docker side: `image build`, `gc`. */
export function addDockerCommands(program: Command, { setExit }: Invocation): void {
  const image = program.command('image').description('the Docker image for --sandbox docker');
  image
    .command('build')
    .description(
      'build the default image (tenet-python:bookworm) offline from Debian packages: debootstrap, then docker import (needs root, about a minute)',
    )
    .option('--tag <name>', 'image name (default tenet-python:bookworm; with --runner tenet-runner:VERSION)')
    .option(
      '--runner',
      "build the runner image for `bench run --on swarm` instead: the sandbox image plus this machine's Node and this tenet (offline, seconds)",
    )
    .option('--base <name>', 'with --runner: the sandbox image it is built on', 'tenet-python:bookworm')
    .option('--suite <name>', 'Debian release', 'bookworm')
    .option('--mirror <url>', 'Debian mirror (default: the one apt uses here)')
    .option('--packages <names...>', 'more Debian packages for the image, e.g. python3-numpy')
    .option('--docker-host <url>', 'the engine to import into (default: $DOCKER_HOST, else the local socket)')
    .option('--quiet', 'print only the result')
    .action(
      async (opts: {
        tag?: string;
        runner?: boolean;
        base: string;
        suite: string;
        mirror?: string;
        packages?: string[];
        dockerHost?: string;
        quiet?: boolean;
      }) => {
        const { imageBuildCommand, runnerBuildCommand } = await import('../commands/docker');
        if (opts.runner)
          setExit(
            await runnerBuildCommand({
              tag: opts.tag,
              base: opts.base,
              dockerHost: opts.dockerHost,
              quiet: !!opts.quiet,
            }),
          );
        else
          setExit(
            await imageBuildCommand({
              tag: opts.tag,
              suite: opts.suite,
              mirror: opts.mirror,
              packages: opts.packages,
              dockerHost: opts.dockerHost,
              quiet: !!opts.quiet,
            }),
          );
      },
    );
  program
    .command('gc')
    .description(
      'remove what a killed tenet left: Docker containers (found by label), the `tenet-sandbox` images no session will start from again, the services, secrets and images of `bench run --on swarm` runs, scratch workspaces and check folders in the temp folder, sessions killed before they started; those of a tenet still running stay',
    )
    .option('--docker-host <url>', 'the engine (default: $DOCKER_HOST, else the local socket)')
    .addOption(
      sessionsDirOption(
        'sessions folder to look in (default: $TENET_SESSIONS_DIR, else ~/.local/state/tenet/sessions)',
      ),
    )
    .option('--all', 'remove the containers of running tenets too')
    .option('--dry-run', 'list what would be removed')
    .option('--json', 'print what was removed and kept as JSON')
    .action(
      async (opts: { dockerHost?: string; all?: boolean; dryRun?: boolean; json?: boolean; sessionsDir?: string }) => {
        const { gcCommand } = await import('../commands/docker');
        setExit(
          await gcCommand({
            dockerHost: opts.dockerHost,
            all: !!opts.all,
            dryRun: !!opts.dryRun,
            json: !!opts.json,
            sessionsDir: opts.sessionsDir,
          }),
        );
      },
    );
}
