# The 32-byte sectors that ROI_ALIGN1 7x7 (dmlvk-bench roi_align1_7x7: 512 boxes from
# splitmix64 seed 2024 on 2x256x200x304, spatial scale 0.25, half-pixel, sampling 2) reads
# by sample rows (BENCHMARKS.md note 164). usage: python3 roi-align1-sectors-note164.py
# [ELEMENT_BYTES [MS]]: prints the sectors each region and channel touches once (perfect reuse
# within them) and those its warp loads request, and their rates at MS milliseconds.
import math
M=(1<<64)-1
def splitmix(s):
    s=(s+0x9E3779B97F4A7C15)&M
    z=s
    z=((z^(z>>30))*0xBF58476D1CE4E5B9)&M
    z=((z^(z>>27))*0x94D049BB133111EB)&M
    return s, z^(z>>31)
import sys
ES=int(sys.argv[1]) if len(sys.argv)>1 else 4
T=float(sys.argv[2]) if len(sys.argv)>2 else 0.130
W,H,scale,rois=304,200,0.25,512
img_w,img_h=W/scale,H/scale
s=2024
tot_unique=0; tot_lane_sectors=0; tot_samples=0
for k in range(rois):
    u=[]
    for i in range(4):
        s,z=splitmix(s); u.append((z>>11)*2.0**-53)
    bw=16+u[2]*(img_w/3); bh=16+u[3]*(img_h/3)
    x1=u[0]*(img_w-bw); y1=u[1]*(img_h-bh)
    # half-pixel (aligned) map coords
    X1=x1*scale-0.5; Y1=y1*scale-0.5; RW=bw*scale; RH=bh*scale
    xs=[X1+(i+0.5)*RW/14 for i in range(14)]
    ys=[Y1+(i+0.5)*RH/14 for i in range(14)]
    def taps(v,n):
        if v< -1 or v> n: return None
        v=max(v,0.0); i0=int(math.floor(v))
        if i0>=n-1: return (n-1,n-1)
        return (i0,i0+1)
    cols=[taps(x,W) for x in xs]; rowsl=[taps(y,H) for y in ys]
    uniq=set(); lane=0
    for r in rowsl:
        if r is None: continue
        for row in set(r):
            # one warp-load per tap column (c0 then c1), count sectors per load
            for which in (0,1):
                secs=set()
                for c in cols:
                    if c is None: continue
                    col=c[which]; sec=(row*W+col)*ES//32
                    secs.add(sec); uniq.add(sec)
                lane+=len(secs)
    tot_unique+=len(uniq); tot_lane_sectors+=lane
ch=256
print("unique sectors per channel-set: %.1f MB" % (tot_unique*ch*32/1e6))
print("sectors requested (per warp-load, before L1): %.1f MB" % (tot_lane_sectors*ch*32/1e6))
for t in (T,):
    print("at %.3f ms: unique %.2f TB/s, requested %.2f TB/s" % (t, tot_unique*ch*32/t/1e9, tot_lane_sectors*ch*32/t/1e9))
