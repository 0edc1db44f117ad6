"""What the judge's audit hook looks at: the events, the calls that change a path, the attributes that
hand out a frame, and the modules of the harness."""

# Events the hook looks at; every other one returns at once (the hook runs for every audited call).
_WATCHED = frozenset(
    {
        "gc.get_objects",
        "gc.get_referrers",
        "gc.get_referents",
        "sys._getframe",
        "sys._current_frames",
        "sys.settrace",
        "sys.setprofile",
        "sys.addaudithook",
        "os.fork",
        "os.forkpty",
        "os.exec",
        "os.posix_spawn",
        "os.spawn",
        "os.kill",
        "os.killpg",
        "os.system",
        "subprocess.Popen",
        "signal.pthread_kill",
        "pty.spawn",
        "object.__getattr__",
        "object.__setattr__",
        "object.__delattr__",
        "open",
        "import",
        "exec",
        "code.__new__",
        "function.__new__",
        "compile",
        "tenet.emit",
        "tenet.trip",
        "tenet.guard",
        "tenet.module.setattr",
        "ctypes.dlopen",
        "ctypes.dlsym",
        "ctypes.dlsym/handle",
        "ctypes.addressof",
        "ctypes.call_function",
        "ctypes.cdata",
        "ctypes.cdata/buffer",
        "ctypes.create_string_buffer",
        "ctypes.create_unicode_buffer",
        "ctypes.get_errno",
        "ctypes.set_errno",
        "ctypes.string_at",
        "ctypes.wstring_at",
        "ctypes.seh_exception",
    }
)
# Calls that change a path, and the argument that names it: into the copy under judgment, a trip.
_PATH_CHANGES = {
    "os.rename": 1,
    "os.link": 1,
    "os.symlink": 1,
    "os.truncate": 0,
    "os.remove": 0,
    "os.rmdir": 0,
    "os.mkdir": 0,
    "os.chmod": 0,
    "os.chown": 0,
    "os.utime": 0,
    "os.chflags": 0,
    "shutil.copyfile": 1,
    "shutil.copytree": 1,
    "shutil.move": 1,
    "shutil.rmtree": 0,
}
_WATCHED = _WATCHED | frozenset(_PATH_CHANGES)
# Attributes that hand out a frame (audited as object.__getattr__).
_FRAME_ATTRIBUTES = frozenset({"tb_frame", "gi_frame", "cr_frame", "ag_frame"})
# Modules of the harness: an import of one by the submission trips, as does changing one.
_HARNESS_PREFIXES = ("pytest", "_pytest", "pluggy", "_tenet", "py")


def _is_harness_module(name):
    return any(name == p or name.startswith(p + ".") or (p == "_tenet" and name.startswith(p)) for p in _HARNESS_PREFIXES)
