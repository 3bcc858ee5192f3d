# Shared by the compat scripts: Debian's pmix bindings, imported with a clear
# message when they are missing, and the proof of which libpmix.so.2 this
# process really uses.
import sys
import warnings

# The bindings start their helper thread with setDaemon(), deprecated in 3.10.
warnings.filterwarnings("ignore", category=DeprecationWarning)

try:
    import pmix  # noqa: F401 (re-exported)
except ImportError as err:
    print(f"cannot import pmix ({err}): apt-get install python3-pmix; "
          "scripts/test.sh installs it", file=sys.stderr)
    sys.exit(3)


def mapped_libpmix():
    """The libpmix.so.2 this process really uses, from /proc/self/maps."""
    with open("/proc/self/maps") as maps:
        for line in maps:
            path = line.split()[-1]
            if path.endswith("/libpmix.so.2") or "/libpmix.so.2." in path:
                return path
    return "none"


def info(key, value, val_type):
    return {"key": key, "value": value, "val_type": val_type}
