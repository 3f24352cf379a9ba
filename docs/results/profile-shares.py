#!/usr/bin/env python3
"""Where a segment's CPU goes, from a CPU profile of the measured rounds of one EngineCost side.

Usage: profile-shares.py PREFIX [WINDOW_SECONDS] [INTERVAL_MS]

PREFIX.collapsed is async-profiler's collapsed output (event=cpu, loaded into the JVM once its warm-up ended and
stopped by its own timeout=WINDOW_SECONDS, 3 by default); PREFIX.txt is what EngineCost printed, whose
"round N:  <side> <rate>" lines give how many segments the window held (200,000 per round). INTERVAL_MS is the
sampling interval (0.5 by default). Prints, in microseconds per segment, each sample's category: a sample belongs to
the first category that its stack matches, read from the leaf up (see classify).
"""
import collections
import re
import sys

KERNEL_WAITS = re.compile(r'\[k\]|futex|Unsafe\.park|Unsafe\.unpark|awaitWork|ForkJoinPool\.deactivate|signalWork')
LOCKS = re.compile(r'AbstractQueuedSynchronizer|ReentrantLock|LockSupport|Semaphore|ConditionObject')
JDK_THREADS = re.compile(r'^java/lang/(VirtualThread|Thread\.|BaseVirtualThread|ThreadBuilders)|ThreadFlock|'
                         r'StructuredTaskScope|ThreadPerTaskExecutor|ForkJoin|jdk/internal/vm/Continuation|'
                         r'ThreadContainer')
REQUEST_THREADS = re.compile(r'Continuation|VirtualThread|EngineCost|Comparison|ForkJoin')
# Orderly's own work, by the step of a job or of the request its stack is in (a sample may be in two: the walker's
# delivery inside its own loop, say; the shares are of Orderly's own samples and need not sum to 100 %).
ORDERLY_STEPS = ['Scheduler.jobEnded', 'JobRunner.run', 'Scheduler.awaitNextJobs', 'OutputWalker', 'LaunchQueue',
                 'Scheduler.delivered', 'RunningJobs', 'NoQueueDialers']
# The JDK's virtual threads, by the first of these frames from the leaf up; rough, as inlining blurs frames.
JDK_PARTS = [('parks and yields of virtual threads', r'VirtualThread\.(park|yieldContinuation|tryYield|unmount|afterYield)'),
             ('unparks of virtual threads', r'VirtualThread\.(unpark|submitRunContinuation|lazySubmit|externalSubmit)'),
             ("the scope's or the executor's bookkeeping of its threads",
              r'ThreadFlock|ThreadContainer|ThreadPerTaskExecutor\.(start|taskComplete)'),
             ('the structured scope: fork, subtask', r'StructuredTaskScope'),
             ('making a thread', r'Thread\.<init>|VirtualThread\.<init>|ThreadBuilders|newThread|BaseVirtualThread'),
             ('starting a thread', r'VirtualThread\.start|Thread\.start'),
             ('ending a thread', r'VirtualThread\.afterDone|ThreadBoundFuture'),
             ('mounting and running a thread', r'VirtualThread\.(mount|run|runContinuation)|Continuation\.(run|enter)'),
             ('the fork-join pool: scan, poll, steal', r'ForkJoin')]


def classify(frames):
    """frames: root first. Returns a category, or None for what is not the request's work (GC, JIT, harness)."""
    stack = ';'.join(frames)
    if 'CoreToCore' in stack or not any(REQUEST_THREADS.search(f) for f in frames):
        return None
    if KERNEL_WAITS.search(stack):
        return 'kernel, and parks and wakes of OS threads'
    for i in range(len(frames) - 1, -1, -1):
        f = frames[i]
        if 'InMemoryOutputStore' in f or 'CheckingConsumer' in f:
            return 'store and client (the same work on both sides)'
        if 'InstantTier2' in f:
            return 'tier2 stub (the same work on both sides)'
        if '/jfr/' in f:
            return "Orderly's own: JFR listener"
        if LOCKS.search(f):
            for g in reversed(frames[:i]):
                if g.startswith('dev/orderly/engine'):
                    return "Orderly's own: locks, waits, wakes"
                if 'HandWritten' in g:
                    return "hand-written's own: semaphore, futures"
                if JDK_THREADS.search(g):
                    break
            return 'JDK: virtual threads (make, start, mount, run, end, schedule)'
        if JDK_THREADS.search(f):
            return 'JDK: virtual threads (make, start, mount, run, end, schedule)'
        if f.startswith('dev/orderly/engine'):
            return "Orderly's own: code"
        if 'HandWritten' in f or 'CompletableFuture' in f or 'FutureTask' in f:
            return "hand-written's own: code"
    return 'JDK: virtual threads (make, start, mount, run, end, schedule)'


def segments_in_window(text, window):
    rates = [int(m.group(1).replace(',', '')) for m in re.finditer(r'round \d+:\s+\S+ ([\d,]+)', text)]
    elapsed, segments = 0.0, 0.0
    for rate in rates:
        took = 200000 / rate
        if elapsed + took > window:
            return segments + 200000 * (window - elapsed) / took
        elapsed += took
        segments += 200000
    return segments


def main():
    prefix = sys.argv[1]
    window = float(sys.argv[2]) if len(sys.argv) > 2 else 3.0
    interval_us = 1000 * float(sys.argv[3]) if len(sys.argv) > 3 else 500.0
    segments = segments_in_window(open(prefix + '.txt').read(), window)
    shares = collections.Counter()
    steps = collections.Counter()
    jdk = collections.Counter()
    jvmti = 0
    for line in open(prefix + '.collapsed'):
        stack, count = line.rsplit(' ', 1)
        frames = stack.split(';')
        count = int(count)
        category = classify(frames)
        if category:
            shares[category] += count
        if category and category.startswith("Orderly's own"):
            for step in ORDERLY_STEPS:
                if any(step in f for f in frames):
                    steps[step] += count
        if category and category.startswith('JDK'):
            jdk[jdk_part(frames)] += count
        if category and 'notify_jvmti' in stack:
            jvmti += count
    work = sum(shares.values())
    print(f'{prefix}: {segments / 200000:.1f} rounds in the window; the request\'s work '
          f'{work * interval_us / segments:.3f} us per segment')
    for category, count in shares.most_common():
        print(f'  {count * interval_us / segments:.3f} us  {100 * count / work:5.1f} %  {category}')
    own = sum(n for c, n in shares.items() if c.startswith("Orderly's own"))
    if own:
        print("  Orderly's own work, by the step its stack is in (% of Orderly's own samples):")
        for step, count in steps.most_common():
            print(f'    {100 * count / own:5.1f} %  {step}')
    # A virtual thread's start, mount, unmount and end are posted to JVMTI only when an agent is loaded: here, the
    # profiler. Counted wherever they fall (nearly all in the JDK's category).
    print(f"  of all that, JVMTI's notifications of virtual threads (made only because the profiler is loaded): "
          f"{jvmti * interval_us / segments:.3f} us")
    print("  the JDK's virtual threads, by frame:")
    for part, count in jdk.most_common():
        print(f'    {count * interval_us / segments:.3f} us  {part}')


def jdk_part(frames):
    for f in reversed(frames):
        for part, pattern in JDK_PARTS:
            if re.search(pattern, f):
                return part
    return 'other'


if __name__ == '__main__':
    main()
