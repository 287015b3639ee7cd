#!/usr/bin/env python3
"""diff-check.py: compare perf_fuzz call logs of mainline's kernel and ours.

    diff-check.py [--quiet] [--allow FILE] ML1 OURS1 [ML2 OURS2]

Each log is a guest console log of plan=fuzz with harness.fuzz_log=2: one
line of C per call and a comment with what it returned.  The calls are the
same on both kernels (a seed fixes them); what is compared is the result of
each: the return value, or the errno.  Results that depend on timing and
not on the kernel's decisions (pids, counts of work done, records drained,
poll readiness, file descriptor numbers) are compared only as success or
errno.

With a second pair of logs (a second run of the same seed), a difference
counts only if it shows at the same call in both rounds, with the same
results: otherwise it came from when a child ran or exited.  A call that
names a file descriptor, mapping or child slot which an earlier
difference left different is not a difference of its own, nor is ESRCH
from a call on a child on one kernel only (the child had exited there).
A mapping that only one kernel made leaves its event's descriptor
different too (it has a buffer there), and holds the event and the
locked memory: while one exists, ENOSPC, EPERM or ENOMEM on the kernel
that made it, where the other succeeds, is taken to follow from it.

The checker follows which descriptor slots hold an inherited per-task
event (attr.inherit, cpu -1, opened or dup()ed with success) and tags
an mmap() of one with `/* inherited per-task */` for the --allow list
(perf_fuzz's logs carry no such tag).

--allow FILE lists the deliberate differences, one per line:
    CALL-REGEX | MAINLINE | OURS | reason
MAINLINE and OURS are results as printed ("-1 EINVAL", "0", "ok") or "*".
Exit status: 0 no difference outside the list, 1 otherwise, 2 if a log is
unusable (--quiet: the same, printing nothing) (the guest died, or a pass did not finish on one kernel).
"""
import re
import sys

# fz_* calls whose value is not the kernel's decision
TIMING = ('fz_spawn', 'fz_reap', 'fz_work', 'fz_ring', 'fz_poll', 'fz_kill',
          'fz_threads',
          # file descriptors: a number shifts once an earlier open differs
          'fz_open', 'fz_dup', 'fz_bpf_load')
CALL_LINE = '/*w0*/ '
RESULT = re.compile(r'/\* = (.*) \*/$')
PROG = re.compile(r'@@PROG fuzz-(\w+) (begin|end rc=(\d+))')


def parse(path):
    """[(pass, call, result)], and the passes that ended."""
    calls, ended, cur, pas = [], [], None, None
    with open(path, errors='replace') as f:
        for line in f:
            line = line.rstrip('\r\n')
            m = PROG.match(line)
            if m:
                if m.group(2) == 'begin':
                    pas = m.group(1)
                else:
                    ended.append(pas)
                continue
            if not line.startswith(CALL_LINE):
                continue
            body = line[len(CALL_LINE):]
            m = RESULT.match(body)
            if m:
                if cur is not None:
                    calls.append((pas, cur, m.group(1)))
                cur = None
            elif not body.startswith('/*'):
                cur = body
    return calls, ended


def normal(call, result):
    name = call.split('(', 1)[0]
    if name in TIMING and result != 'skipped':
        return 'ok' if not result.startswith('-') else result
    return result


SLOT = re.compile(r'\b(?:fd|mp|kid)\[\d+\]')
WHOLE_TAG = ' /* inherited per-task */'
# fz_open(&fd[N], ATTR, alloc, tail, pid, cpu, group, flags);
OPEN_TAIL = re.compile(r'^fz_open\(&(fd\[\d+\]), (.*), (\S+), (\S+), (\S+), '
                       r'(-?\d+), (\S+), (\S+)\);$')
DUP = re.compile(r'^fz_dup\(&(fd\[\d+\]), (fd\[\d+\]|-?\d+)\);$')
MMAP_FD = re.compile(r'^fz_mmap\(&mp\[\d+\], (fd\[\d+\]),')
# what a mapping made on one kernel only may hold up on that kernel
HELD = ('-1 ENOSPC', '-1 EPERM', '-1 ENOMEM')


def track_whole(whole, call, result):
    """Keep @whole, the fd slots holding an inherited per-task event."""
    ok = not result.startswith('-') and result != 'skipped'
    m = OPEN_TAIL.match(call)
    if m:
        if ok:
            attr = m.group(2)
            if re.search(r'\.inherit = 0x1\b', attr) and m.group(6) == '-1':
                whole.add(m.group(1))
            else:
                whole.discard(m.group(1))
        return
    m = DUP.match(call)
    if m and ok:
        if m.group(2) in whole:
            whole.add(m.group(1))
        else:
            whole.discard(m.group(1))


def tag_whole(whole, call):
    m = MMAP_FD.match(call)
    if m and m.group(1) in whole and WHOLE_TAG not in call:
        return call + WHOLE_TAG
    return call
# calls that fill their first argument's slot afresh, whatever was there
CREATORS = ('fz_open', 'fz_dup', 'fz_bpf_load', 'fz_spawn', 'fz_mmap',
            'fz_aux')
ASSIGNS = re.compile(r'^\w+\(&((?:fd|mp|kid)\[\d+\])')


def reaped(result):
    """Did a fz_reap() take its child (and empty the slot)?  A soft
    reap of a child still running returns 0 and keeps it."""
    return result not in ('0', 'skipped') and not result.startswith('-')


def differences(ml, ours):
    """{index: (pass, call, ml result, our result)} of the calls that differ
    first-hand, and how many differ only because an earlier difference
    left a file descriptor, mapping or child different (they name its
    slot) or because a child had exited on one kernel only (ESRCH)."""
    out, follows, timing, tainted = {}, 0, 0, set()
    whole, one_sided = set(), set()
    for i, (a, b) in enumerate(zip(ml, ours)):
        m = ASSIGNS.match(a[1])
        slot = m.group(1) if m else None
        ra, rb = normal(a[1], a[2]), normal(b[1], b[2])
        if a[1].split(WHOLE_TAG)[0] != b[1].split(WHOLE_TAG)[0]:
            out[i] = (a[0], a[1], 'call ' + a[1][:60], 'call ' + b[1][:60])
            break
        if slot and a[1].startswith('fz_reap(') and \
                reaped(a[2]) != reaped(b[2]):
            # the child had exited on one kernel only: the slot now
            # holds it there and -1 on the other
            tainted.add(slot)
            timing += 1
            continue
        call = tag_whole(whole, a[1])
        if ra == rb:
            track_whole(whole, a[1], ra)
            # (a call that fails leaves the slot as it was)
            if slot and not ra.startswith('-') and ra != 'skipped':
                tainted.discard(slot)
                one_sided.discard(slot)
            continue
        used = set(SLOT.findall(a[1]))
        if a[1].split('(', 1)[0] in CREATORS:
            used.discard(slot)
        if slot:
            tainted.add(slot)
        mfd = MMAP_FD.match(a[1])
        followed = bool(used & tainted)
        if mfd and ra.startswith('-') != rb.startswith('-'):
            tainted.add(mfd.group(1))
            one_sided.add(slot)
        if followed:
            follows += 1
        elif one_sided and (ra in HELD and not rb.startswith('-') or
                            rb in HELD and not ra.startswith('-')):
            follows += 1
        elif 'kid[' in a[1] and '-1 ESRCH' in (ra, rb):
            timing += 1
        else:
            out[i] = (a[0], call, ra, rb)
    return out, follows, timing


def load_allow(path):
    rules = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith('#'):
                continue
            parts = [p.strip() for p in line.split('|')]
            if len(parts) < 4:
                continue
            rules.append((re.compile(parts[0]), parts[1], parts[2], parts[3]))
    return rules


def allowed(rules, call, a, b):
    for rx, ra, rb, why in rules:
        if rx.search(call) and ra in ('*', a) and rb in ('*', b):
            return why
    return None


def main(argv):
    quiet = '--quiet' in argv
    argv = [a for a in argv if a != '--quiet']
    rules = []
    if '--allow' in argv:
        i = argv.index('--allow')
        rules = load_allow(argv[i + 1])
        del argv[i:i + 2]
    if len(argv) not in (2, 4):
        print(__doc__)
        return 2
    logs = [parse(p) for p in argv]
    for path, (calls, ended) in zip(argv, logs):
        if not calls or len(ended) < 2:
            if not quiet:
                print('  %s: unusable (%d calls, passes ended: %s)' %
                      (path, len(calls), ' '.join(ended) or 'none'))
            return 2
    diff, follows, timing = differences(logs[0][0], logs[1][0])
    unstable = {}
    if len(argv) == 4:
        again = differences(logs[2][0], logs[3][0])[0]
        for i in list(diff):
            if again.get(i) != diff[i]:
                unstable[i] = diff.pop(i)
    if quiet:
        return 1 if any(not allowed(rules, *d[1:]) for d in diff.values()) else 0
    counted, allow_hits = [], {}
    for i in sorted(diff):
        why = allowed(rules, *diff[i][1:])
        if why:
            allow_hits[why] = allow_hits.get(why, 0) + 1
        else:
            counted.append(i)
    n = min(len(logs[0][0]), len(logs[1][0]))
    for path, (calls, _e) in zip(argv[:2], logs[:2]):
        if len(calls) > n:
            continue
        if len(logs[0][0]) != len(logs[1][0]):
            print('  note: %s made %d calls (a worker stuck or killed); '
                  'the first %d of each are compared' % (path, len(calls), n))
    print('  %d calls compared; %d differ first-hand: %d on the list of '
          'deliberate differences, %d not repeated in a second run, '
          '%d counted (and %d follow from an earlier difference, %d from '
          'a child that had exited on one kernel only)' %
          (n, len(diff) + len(unstable), sum(allow_hits.values()),
           len(unstable), len(counted), follows, timing))
    for why, k in sorted(allow_hits.items()):
        print('    listed (%d): %s' % (k, why))
    for i in counted[:25]:
        pas, call, a, b = diff[i]
        print('  DIFF call %d (%s): %s' % (i, pas, call[:300]))
        print('       mainline: %s   ours: %s' % (a, b))
    if len(counted) > 25:
        print('  ... and %d more' % (len(counted) - 25))
    return 1 if counted else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
