/** The image `tenet image build` makes and `--sandbox docker` uses unless told otherwise. */
export const DEFAULT_IMAGE = 'tenet-python:bookworm';

/** Labels on every container tenet makes: `tenet gc` finds what a crash left by them. */
export const LABELS = {
  managed: 'dev.tenet.managed',
  session: 'dev.tenet.session',
  owner: 'dev.tenet.owner',
  /** The user id the container's processes run as (see container-user.ts). */
  uid: 'dev.tenet.uid',
  /** On a `--on swarm` run's services, secret and image: which run folder they serve (see swarm/swarm-run.ts). */
  swarmRun: 'dev.tenet.swarm-run',
} as const;
