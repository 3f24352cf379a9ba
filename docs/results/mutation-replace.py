"""Full run, with whole classes replaced by narrowed runs: args base.xml classes1 run1.xml [classes2 run2.xml ...]"""
import re, sys, collections
def load(path):
    s = open(path).read(); out = {}
    for m in re.findall(r"<mutation (.*?)</mutation>", s, re.S):
        g = lambda t: (re.search(r"<%s>(.*?)</%s>" % (t, t), m, re.S) or [None, ''])[1] if re.search(r"<%s>" % t, m) else ''
        key = (g('mutatedClass'), g('mutatedMethod'), g('methodDescription'), g('lineNumber'), g('mutator'), g('indexes'))
        out[key] = (re.search(r"status='(\w+)'", m).group(1), g('description'))
    return out
top = lambda c: c.split('$')[0]
final = load(sys.argv[1]); replaced = set()
for classes, path in zip(sys.argv[2::2], sys.argv[3::2]):
    cs = set(classes.split(',')); replaced |= cs
    final = {k: v for k, v in final.items() if top(k[0]) not in cs}
    for k, v in load(path).items():
        if top(k[0]) in cs and (k not in final or v[0] in ('KILLED', 'TIMED_OUT')):
            final[k] = v
c = collections.Counter(st for st, _ in final.values()); killed = c['KILLED'] + c['TIMED_OUT']
print(f"mutants {len(final)}, killed {killed} (timed out {c['TIMED_OUT']}), survived {c['SURVIVED']}, no coverage {c['NO_COVERAGE']}, score {100.0*killed/len(final):.1f} %")
per = collections.defaultdict(lambda: [0, 0])
for k, (st, d) in final.items():
    if top(k[0]) in replaced:
        per[top(k[0]).split('.')[-1]][1] += 1; per[top(k[0]).split('.')[-1]][0] += st in ('KILLED', 'TIMED_OUT')
for cl, (kk, n) in sorted(per.items()): print(f"  {cl}: {kk} / {n}")
for k, (st, d) in sorted(final.items()):
    if st not in ('KILLED', 'TIMED_OUT') and top(k[0]) in replaced:
        print(' ', st, k[0].split('.')[-1], k[1], 'line', k[3], d.replace('&quot;', '"'))
