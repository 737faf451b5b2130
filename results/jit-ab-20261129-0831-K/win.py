import json,sys,datetime,re,glob
R=sys.argv[1]; ts_file=sys.argv[2]; jit=sys.argv[3] if len(sys.argv)>3 else None
d=json.load(open(R+"/results.json"))
gl=glob.glob(R+"/ingest-gc-*.log")[0]
l=open(gl).readline()
m=re.match(r"\[(\S+?)\]\[([\d.]+)s\]",l)
t0=datetime.datetime.strptime(m.group(1)[:23],"%Y-%m-%dT%H:%M:%S.%f").replace(tzinfo=datetime.timezone.utc).timestamp()-float(m.group(2))
ser=d['series']
dr=[s for s in ser if s['phase']=='drain']
w0=t0+dr[0]['t']; w1=t0+dr[-1]['t']
print("window", dr[0]['t'], dr[-1]['t'], "series cpu", round(dr[-1]['cpuSeconds']-dr[0]['cpuSeconds'],2), "results cpuSeconds", round(d['ingestion']['cpuSeconds'],2))
rows=[json.loads(l) for l in open(ts_file)]
def at(t): return min(rows,key=lambda r:abs(r[0]-t))
a=at(w0); b=at(w1)
print("sample offsets %.2f %.2f"%(a[0]-w0, b[0]-w1))
tot=sum(b[1].values())-sum(a[1].get(k,0) for k in b[1])
print("window cpu by group, total %.2f"%tot)
for k in sorted(b[1], key=lambda k: -(b[1][k]-a[1].get(k,0))):
    c=b[1][k]-a[1].get(k,0)
    if c>0.02: print(f"{c:6.2f} {100*c/tot:5.1f}% {k}")
if jit:
  n=0;nin=0;big=[]
  for l in open(jit):
    m=re.match(r"\[(\S+?)\]",l)
    if not m: continue
    ts=datetime.datetime.strptime(m.group(1)[:23],"%Y-%m-%dT%H:%M:%S.%f").replace(tzinfo=datetime.timezone.utc).timestamp()
    n+=1
    if w0<=ts<=w1: nin+=1; big.append(l.rstrip())
  print("compiles total",n,"in window",nin)
  open('/tmp/k/inwindow.txt','w').write("\n".join(big))
