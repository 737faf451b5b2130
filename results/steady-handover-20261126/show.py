import json,time,datetime,sys
name=sys.argv[1]
d=json.load(open('/work/main/runs/lat-%s/results.json'%name))
t0=datetime.datetime.fromisoformat(d['run']['startedAt'].replace('Z','+00:00')).timestamp()
rows=[l.split() for l in open('/tmp/lat/%s.cpu'%name).read().split('\n')[1:] if l]
# cpumon per 0.5 s; aggregate per second label
cpu={}
for r in rows: cpu.setdefault(r[0],[]).append([float(x) for x in r[1:]])
cpu={k:[sum(c)/len(v) for c in zip(*v)] for k,v in cpu.items()}
ser=d['series']
def corr(off):
    xs=[];ys=[]
    for s in ser:
        k=time.strftime('%H:%M:%S', time.gmtime(t0+s['t']+off))
        if k in cpu: xs.append(s['generatedPerSec']); ys.append(cpu[k][1])
    if len(xs)<10: return -1
    mx=sum(xs)/len(xs); my=sum(ys)/len(ys)
    num=sum((x-mx)*(y-my) for x,y in zip(xs,ys)); den=(sum((x-mx)**2 for x in xs)*sum((y-my)**2 for y in ys))**.5
    return num/den if den else -1
off=max(range(-15,16), key=corr)
print('offset', off, 'corr', round(corr(off),2))
print('t phase gen ingested backlog p99 | ingest run broker pg other busy iowait')
for s in ser:
    k=time.strftime('%H:%M:%S', time.gmtime(t0+s['t']+off))
    c=cpu.get(k)
    print(round(s['t']), s['phase'][:9], round(s['generatedPerSec']), round(s['ingestedPerSec']), s['backlog'], s['p99Millis'], '|', ' '.join('%.2f'%x for x in c) if c else '-')
