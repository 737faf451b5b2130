import time,sys
out=open(sys.argv[1],'w')
while True:
    t=time.time()
    io=open('/proc/pressure/io').read().split()
    cpu=open('/proc/pressure/cpu').read().split()
    mi={l.split(':')[0]:l.split()[1] for l in open('/proc/meminfo') if l.startswith(('Dirty','Writeback:'))}
    ds=open('/proc/diskstats').read()
    vda=[l.split() for l in ds.splitlines() if ' vda ' in l][0]
    out.write(f"{t:.3f} {io[4].split('=')[1]} {io[9].split('=')[1]} {cpu[4].split('=')[1]} {mi['Dirty']} {mi['Writeback']} {vda[9]} {vda[13] if len(vda)>13 else 0}\n"); out.flush()
    time.sleep(0.1-((time.time()-t)%0.1))
