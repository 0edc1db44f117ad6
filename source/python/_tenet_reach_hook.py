"""Where the reach probe of ``tenet bench make`` reports (see source/engine/bench/make-instrument.ts).

Each candidate function of the reach pass's scratch copy starts with
``import _tenet_reach_hook; _tenet_reach_hook.hit(ID)``. The reach plugin (``_tenet_reach``)
replaces ``hit`` with its recorder when pytest loads it; anywhere else (a subprocess a test starts,
a tool the suite runs) the probe finds this one and does nothing.
"""


def hit(fid):
    return None
