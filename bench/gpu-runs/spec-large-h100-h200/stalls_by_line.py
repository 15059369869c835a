"""Summary of ncu's source counters (run1.sh: ncu --page source --print-source cuda,sass --csv, xz'd as mix0.csv.xz):
warp stall reasons over the kernel, shared-memory wavefronts and their excess, and the top source lines by a column.
    xz -dc mix0.csv.xz > mix0.csv; python3 stalls_by_line.py mix0.csv ["Instructions Executed"]"""
import csv, sys, collections
f=None; hdr=None; rows=[]; sass=[]
for r in csv.reader(open(sys.argv[1])):
    if not r: continue
    if r[0]=="File Path": f=r[1].split("/")[-1]; continue
    if r[0]=="Function Name": continue
    if r[0]=="Line No": hdr=r; continue
    d=dict(zip(hdr,r))
    if r[0]!="": rows.append((f,d))
    else: sass.append((f,d))
def num(x):
    try: return float(x)
    except: return 0.0
stalls=[h for h in hdr if h.startswith("stall_") and "Not Issued" not in h]
tot=collections.Counter()
for f,d in rows:
    for s in stalls: tot[s]+=num(d[s])
T=sum(tot.values()); print("samples",T)
for s,v in tot.most_common(12): print(f"  {s} {100*v/T:.1f}%")
I=sum(num(d["Instructions Executed"]) for f,d in rows)
W=sum(num(d["L1 Wavefronts Shared"]) for f,d in rows); WE=sum(num(d["L1 Wavefronts Shared Excessive"]) for f,d in rows)
print("warp instr",I,"shared wavefronts",W,"excess",WE)
key=sys.argv[2] if len(sys.argv)>2 else "Warp Stall Sampling (All Samples)"
print("== top lines by",key)
for f,d in sorted(rows,key=lambda fd:-num(fd[1][key]))[:45]:
    print(f"{num(d['Warp Stall Sampling (All Samples)'])/T*100:5.1f}%smp {num(d['Instructions Executed'])/I*100:5.1f}%ins exc={num(d['L1 Wavefronts Shared Excessive'])/max(WE,1)*100:4.1f}% bar={num(d['stall_barrier']):.0f} mio={num(d['stall_mio']):.0f} sb={num(d['stall_short_sb']):.0f} {f}:{d['Line No']} {d['Source'].strip()[:80]}")
