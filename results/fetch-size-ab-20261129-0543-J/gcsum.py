import re,sys,glob,json
for d in sys.argv[1:]:
    for run in sorted(glob.glob(d+"/streamlab-*/")):
        young=[];full=[];live=[]
        for f in glob.glob(run+"ingest-gc-*.log"):
            for l in open(f):
                m=re.search(r"Pause (Young|Full) \((.*?)\) (\d+)M->(\d+)M\(\d+M\) ([\d.]+)ms",l)
                if m:
                    (young if m.group(1)=="Young" else full).append(float(m.group(5)))
                    if m.group(1)=="Young": live.append(int(m.group(4)))
        t={}
        gc=None
        name=run.rstrip("/").split("/")[-1].replace("streamlab-","")
        print(f"{d.split('/')[2]:7} {name:45} young n={len(young)} sum={sum(young):.0f}ms max={max(young):.0f}ms live-after max={max(live)}M  full n={len(full)} sum={sum(full):.0f}ms")
