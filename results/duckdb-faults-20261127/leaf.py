import sys, bisect, subprocess, collections
syms=[]
for line in open('/tmp/dq/syms.txt'):
    p=line.rstrip('\n').split(' ',2)
    if len(p)<3: continue
    syms.append((int(p[0],16),p[2]))
syms.sort(); addrs=[a for a,_ in syms]
data=sys.argv[1]; comm=sys.argv[2]
out=subprocess.run(['perf','script','-i',data,'--comm',comm,'-F','ip,sym,dso','-G'],capture_output=True,text=True).stdout
c=collections.Counter(); tot=0
for line in out.splitlines():
    line=line.strip()
    if not line: continue
    tot+=1
    ip,rest=line.split(' ',1)
    if 'libduckdb' in rest:
        a=int(ip,16); i=bisect.bisect_right(addrs,a)-1
        name=syms[i][1] if i>=0 else '?'
        c['duckdb: '+name[:110]]+=1
    else:
        c[rest[:130]]+=1
print('samples',tot)
for k,v in c.most_common(int(sys.argv[3]) if len(sys.argv)>3 else 60): print(f'{100*v/tot:6.2f}% {v:6d} {k}')
