"""Combines a full PIT run with narrowed runs of new tests: a mutant counts as killed if any run killed it."""
import re, sys, collections
def load(path):
    s = open(path).read()
    out = {}
    for m in re.findall(r"<mutation (.*?)</mutation>", s, re.S):
        g = lambda t: (re.search(r"<%s>(.*?)</%s>" % (t, t), m, re.S) or [None, ''])[1] if re.search(r"<%s>" % t, m) else ''
        key = (g('mutatedClass'), g('mutatedMethod'), g('methodDescription'), g('lineNumber'), g('mutator'), g('indexes'))
        out[key] = (re.search(r"status='(\w+)'", m).group(1), g('description'))
    return out
base = load(sys.argv[1])
final = dict(base)
for p in sys.argv[2:]:
    for k, (st, d) in load(p).items():
        if k not in base:
            print('not in the full run:', k, file=sys.stderr); continue
        if st in ('KILLED', 'TIMED_OUT') and final[k][0] not in ('KILLED', 'TIMED_OUT'):
            final[k] = (st, d)
c = collections.Counter(st for st, _ in final.values())
killed = c['KILLED'] + c['TIMED_OUT']
print(f"mutants {len(final)}, killed {killed} (of which timed out {c['TIMED_OUT']}), survived {c['SURVIVED']}, "
      f"no coverage {c['NO_COVERAGE']}, other {len(final) - killed - c['SURVIVED'] - c['NO_COVERAGE']}, "
      f"score {100.0 * killed / len(final):.1f} %")
for k, (st, d) in sorted(final.items()):
    if st not in ('KILLED', 'TIMED_OUT'):
        print(' ', st, k[0].split('.')[-1], k[1], 'line', k[3], d.replace('&quot;', '"'))
