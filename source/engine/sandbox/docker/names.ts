/** The image `tenet image build` makes and `--sandbox docker` uses unless told otherwise. */
export const DEFAULT_IMAGE = 'tenet-python:bookworm';

/** Where the images with tenet's helpers in them go (see helpers-image.ts): one tag per base image and helpers version. */
export const HELPERS_IMAGE_REPO = 'tenet-sandbox';

/** Labels on every container tenet makes: `tenet gc` finds what a crash left by them. */
export const LABELS = {
  managed: 'dev.tenet.managed',
  session: 'dev.tenet.session',
  owner: 'dev.tenet.owner',
  /** The user id the container's processes run as (see container-user.ts). */
  uid: 'dev.tenet.uid',
  /** On a `--on swarm` run's services, secret and image: which run folder they serve (see swarm/swarm-run.ts). */
  swarmRun: 'dev.tenet.swarm-run',
  /** On an image with tenet's helpers in it, and the container it was made from: which base image and helpers (the tag's version). */
  helpers: 'dev.tenet.helpers',
} as const;
