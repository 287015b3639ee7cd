#!/usr/bin/env python3
"""check-config.py .config FRAGMENT...: fail if a fragment's setting is lost,
or if the config cannot report a bug (REQUIRED below), whatever the
fragments say."""
import re
import sys


def settings(path):
    out = {}
    for line in open(path):
        line = line.strip()
        m = re.match(r"^(CONFIG_\w+)=(.*)$", line)
        if m:
            out[m.group(1)] = m.group(2)
            continue
        m = re.match(r"^# (CONFIG_\w+) is not set$", line)
        if m:
            out[m.group(1)] = "n"
    return out


# Every guest kernel must be able to report WARN_ON()/BUG_ON(): without
# CONFIG_BUG they compile to nothing and no test can see them.
REQUIRED = {"CONFIG_BUG": "y", "CONFIG_DEBUG_BUGVERBOSE": "y"}


def main():
    have = settings(sys.argv[1])
    bad = []
    for key, want in REQUIRED.items():
        if have.get(key, "n") != want:
            bad.append("required: %s=%s but the config has %s" %
                       (key, want, have.get(key, "n")))
    for frag in sys.argv[2:]:
        for key, want in settings(frag).items():
            got = have.get(key, "n")
            if got != want:
                bad.append("%s: %s=%s but the config has %s" % (frag, key, want, got))
    if bad:
        sys.stderr.write("check-config: settings the kernel config dropped:\n  " +
                         "\n  ".join(bad) + "\n")
        sys.exit(1)


if __name__ == "__main__":
    main()
