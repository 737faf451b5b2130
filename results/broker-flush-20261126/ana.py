import sys,subprocess,datetime
run=sys.argv[1]
T=subprocess.run(['psql','-h','127.0.0.1','-U','postgres','-d','streamlab_bench','-Atc',"select tablename from pg_tables where schemaname='public' and tablename not like '%failed'"],capture_output=True,text=True).stdout.split()[0]
q=f"select (sl_write_time_us/100000) b, count(*), max((sl_write_time_us - sl_send_time_us)/1000)::int mx from {T} where sl_producer_id < 1000 group by 1 order by 1"
rows=[l.split('|') for l in subprocess.run(['psql','-h','127.0.0.1','-U','postgres','-d','streamlab_bench','-Atc',q],capture_output=True,text=True).stdout.split()]
b={int(r[0]):(int(r[1]),int(r[2])) for r in rows}
S=[l.split() for l in open(f'/tmp/inv/{run}-sample.txt')]
S=[(float(x[0]),*map(int,x[1:])) for x in S]
lo,hi=min(b)/10,max(b)/10
W=[s for s in S if lo<=s[0]<=hi]
print('window',hi-lo,'s; 100ms buckets with max latency >250ms:',sum(1 for v in b.values() if v[1]>250),'; empty buckets:',sum(1 for k in range(min(b),max(b)) if k not in b))
print('max Dirty kB in window', max(s[4] for s in W), '; io full stall ms in window', (W[-1][2]-W[0][2])/1000, '; max io full per 100ms (us)', max(c[2]-a[2] for a,c in zip(W,W[1:])))
