#!/bin/bash
# Builds, here, everything the prepared device scripts of BENCHMARKS.md notes 194, 195, 202 and 203 carry in .gl/
# (a new checkout has no .gl/): the Vulkan loader packages, tools/bench_*.py, the scripts themselves, and release
# builds of dmlvk-bench:
#   .gl/kf64      the note 203 patch on HEAD (its library is 51c9300's)
#   .gl/kfuse     note 202's knob patch on 5bf92d4 (plans without knobs are 51c9300's)
#   .gl/kbase202  6454946, the library before note 202's fused lines
#   .gl/k94       note 194's shape knobs on HEAD (notes 194 and 195)
#   .gl/kref, .gl/kdiff  a2cecfc and 6f6aa5d: the ROI gradient's plane reference, before and after (note 204)
#   .gl/kfinal    e15c29d: notes 203 and 205 together, against .gl/kref in session87-call3.sh
#   .gl/kfb, .gl/kd52, .gl/k438, .gl/k5bf  fb14a1b, d52b90b, 438fdb4, 5bf92d4: the commits between kbase202 and kfuse
#                 that touch lib/ or glsl/, for session88-call.sh's search of rnd042's loss (note 205)
#   .gl/kform, .gl/khoist, .gl/kboth  note 206's patches on a5a2706 (the library before 0a1efd3), session88-call2.sh
#   .gl/khead, .gl/kh206  HEAD, and note 206's hoist on it, for session89-call.sh
#   .gl/krestrict  note 207: the parameter blocks declared restrict, on HEAD
#   .gl/kexp209    note 209's knobs (ROI_ALIGN1's lists beside the sample rows; dispatches up to N; the plan) on 9a98edf,
#                  session90-call.sh
#   .gl/kstages    HEAD with DMLVK_EXP_UPTO=N (an operator's first N dispatches), DMLVK_EXP_SKIP=i and
#                  DMLVK_EXP_LIST=1 (its plan on stderr), for stage profiles as note 209's
#   .gl/k214       note 214: note 194's shape knob plus DMLVK_EXP_SHAPE_PRINT on HEAD, for session92-call.sh
#   .gl/kpre92, .gl/k92  a702248 and c46199c: before and after session 92's in-bounds indexes (note 215),
#                 for session92-call2.sh (with .gl/t92, c46199c's test_roi_align); .gl/k92b 053e2a9, the same reads as
#                 branches, for session92-call3.sh (with .gl/t92b); .gl/k92c 053e2a9 with the gather's reads as a702248 had
#                 them but the line's own weights indexed i & 3 (note 215's patch), for session92-call4.sh
#   .gl/kpre93, .gl/k93  93abe6b and 4ab08ec: the geometry stage's modes as specialization constants, then from
#                 roi_align_params (note 216), for session93-call.sh
#   .gl/k217       note 217: the stage knobs plus DMLVK_EXP_SKIP_SHADER=N (no dispatch of shader N),
#                  DMLVK_EXP_NO_FUSED=1 (no ROI gradient in the gather) and DMLVK_EXP_ROI_ITEMS=N (the ROI stage's
#                  items per invocation) on c6f418e, for session94-call.sh; .gl/kmerge the ROI gradient's workgroups
#                  in the gather's dispatch with the same knobs and DMLVK_EXP_NO_MERGE=1, on c6f418e, for
#                  session94-call2.sh; .gl/kwords note 218's 16-bit transpositions by words, on a5c55db (its
#                  library is c6f418e's), for session94-call3.sh
#   .gl/kbase219, .gl/ktiles  note 219: 1d24ca7, and cc059d2 (roi_align_grad_prepare's blocks of several tiles) with
#                  DMLVK_EXP_TILES=N (N tiles per block in every type), for session95-call.sh; .gl/kinplace
#                  45687d1 (an InputTensor laid out as the ROI gradient's copy read in place), for session95-call2.sh;
#                  .gl/kown f776668 (float32's ROI gradient in its own stage where the input stands in for its copy) and
#                  .gl/kconv the same with float16 converted by integer arithmetic, for session95-call3.sh; .gl/kwords2
#                  37fbfc9 (the input read in place by words where off 16 bytes, no copy), for session95-call4.sh
#   .gl/kbase96, .gl/kpairs96  45143d7, and 0bcaa55 (16-bit transpositions loading each word of a channel's pixels
#                  once, and a channel pair's word once), for session96-call.sh; .gl/kexp96 27bff7a (45143d7's library) with
#                  docs/experiments/roi-align1-rows-channels-knobs-session96.patch (DMLVK_EXP_ROWS_CHANNELS=N: N channels
#                  per workgroup in ROI_ALIGN1's sample-row walk; DMLVK_EXP_NO_RESCUE=1: no overflow dispatch, timing
#                  only), for session97-call.sh (prepared in session 96); .gl/krule97 6c8410f with
#                  docs/experiments/roi-align1-rows-spread-knobs-session97.patch (the sample rows' fewer channels where
#                  the walk would leave the device half idle, DMLVK_EXP_ROWS_LEAST, DMLVK_EXP_ROWS_SPREAD and
#                  DMLVK_EXP_PRINT_RESIDENT=1 for its limits and the device's count), for session97-call2.sh;
#                  .gl/khead97 bbb986c (note 225's rule as committed), for session98-call.sh (prepared in session 97);
#                  .gl/kbins97 e684d15 with docs/experiments/roi-whole-bins-channels-knob-session97.patch
#                  (DMLVK_EXP_BINS_CHANNELS=N: N channels per workgroup of the whole-bins walks), for session98-call2.sh;
#                  .gl/krule98 cfa63d7 (note 226's first rule for the 16-bit whole bins), for session98-call3.sh;
#                  .gl/krule98b a3add68 (that rule as kept), for session98-call4.sh; .gl/kpad98 1d8ac29 with
#                  docs/experiments/roi-align1-rows-padded-session98.patch (ROI_ALIGN1's sample rows for any samples per
#                  bin along x that fit the subgroup rounded up to a power of two) and
#                  docs/experiments/roi-align1-rows-adaptive-knobs-session98.patch (DMLVK_EXP_ROWS_LEAST,
#                  DMLVK_EXP_ROWS_SPREAD for adaptive sampling's rows), .gl/kknob98 1d8ac29 with the knobs alone, for
#                  session99-call.sh (prepared in session 98)
#   .gl/klast      note 210: the gather's parts summed by each tile's last part, on HEAD, for session90-call2.sh
#   .gl/klast4     note 210: the same with the last part's loads four elements at a time, for session90-call3.sh
#   .gl/kpre91, .gl/kties, .gl/kties2, .gl/kties3, .gl/kties4  759ee36, then 723b5df, da98dba, 8895974 and 41a9c37:
#                 ROI_ALIGN_GRAD MAX before and after its near ties in real arithmetic (note 212, all reverted), for
#                 session91-call2.sh to -call5.sh (each also carries .gl/t91, the test_roi_align of its commit)
# Run from the repository root: `bash docs/experiments/device-kits.sh [KIT...]` (all six by default; on a 2-core
# machine about 30 seconds each). Then, on the device, with carry [".gl"]: `bash .gl/session87-call.sh` (about 400 s:
# note 204's A/B, note 203, note 202 against 6454946), and in a second call note 195
# (`bash .gl/resample-forced-shapes-backward-note195.sh`) or note 194.
set -euo pipefail
top=$(git rev-parse --show-toplevel)
cd "$top"
kits=("$@")
[ ${#kits[@]} -gt 0 ] || kits=(kf64 kfuse kbase202 k94 kref kdiff kfinal)
x=docs/experiments
mkdir -p .gl
bash ../shared/tools/gpu-vulkan-debs >/dev/null
cp tools/bench_ab.py tools/bench_variants.py tools/bench_torch.py \
    $x/roi-geometry-float64-note203.sh $x/roi-geometry-lines-note202.sh \
    $x/resample-forced-shapes-note194.sh $x/resample-forced-shapes-backward-note195.sh $x/session87-call.sh $x/session87-call3.sh $x/session88-call.sh $x/session88-call2.sh $x/session89-call.sh $x/session89-call2.sh $x/session90-call.sh $x/session90-call2.sh $x/session90-call3.sh $x/session90-call4.sh $x/session91-call.sh $x/session91-call2.sh $x/session91-call3.sh $x/session91-call4.sh $x/session91-call5.sh $x/session92-call.sh $x/session92-call2.sh $x/session92-call3.sh $x/session92-call4.sh $x/session92-call5.sh $x/session92-call6.sh $x/session93-call.sh $x/session94-call.sh $x/session94-call2.sh $x/session94-call3.sh $x/session95-call.sh $x/session95-call2.sh $x/session95-call3.sh $x/session95-call4.sh $x/session95-call5.sh $x/session96-call.sh $x/session97-call.sh $x/session97-call2.sh $x/session98-call.sh $x/session98-call2.sh $x/session98-call3.sh $x/session98-call4.sh $x/session99-call.sh $x/device-setup.sh .gl/

build() {
    local kit=$1 rev=$2 patch=$3 wt=/tmp/dmlvk-kit-$1
    git worktree remove -f "$wt" 2>/dev/null || rm -rf "$wt"
    git worktree add -f --detach "$wt" "$rev" >/dev/null
    for one in $patch; do
        git -C "$wt" apply "$top/$one"
    done
    (cd "$wt" && meson setup build-exp --buildtype=release -Dtests=false >/dev/null \
        && ninja -C build-exp tools/dmlvk-bench >/dev/null)
    mkdir -p .gl/$kit
    cp "$wt/build-exp/tools/dmlvk-bench" .gl/$kit/
    git worktree remove -f "$wt"
    echo "$kit: $(git rev-parse --short "$rev")${patch:+ + $patch}"
}

for kit in "${kits[@]}"; do
    case $kit in
    kf64) build kf64 HEAD $x/roi-geometry-float64-note203.patch ;;
    kfuse) build kfuse 5bf92d4 $x/roi-geometry-lines-knobs-note202.patch ;;
    kbase202) build kbase202 6454946 "" ;;
    k94) build k94 HEAD $x/resample-forced-shapes-knobs-note194.patch ;;
    kref) build kref a2cecfc "" ;;
    kdiff) build kdiff 6f6aa5d "" ;;
    kfinal) build kfinal e15c29d "" ;;
    kfb) build kfb fb14a1b "" ;;
    kd52) build kd52 d52b90b "" ;;
    k438) build k438 438fdb4 "" ;;
    k5bf) build k5bf 5bf92d4 "" ;;
    khead) build khead HEAD "" ;;
    kh206) build kh206 HEAD $x/roi-gather-lines-place-hoist-note206.patch ;;
    krestrict) build krestrict HEAD $x/params-restrict-note207.patch ;;
    kexp209) build kexp209 9a98edf $x/roi-align1-rows-taps-knobs-note209.patch ;;
    kstages) build kstages HEAD $x/dispatch-stages-knobs.patch ;;
    klast) build klast HEAD $x/roi-gather-last-part-note210.patch ;;
    kpre91) build kpre91 759ee36 "" ;;
    kties) build kties 723b5df "" ;;
    kties2) build kties2 da98dba "" ;;
    kties3) build kties3 8895974 "" ;;
    kties4) build kties4 41a9c37 "" ;;
    kpre92) build kpre92 a702248 "" ;;
    k92) build k92 c46199c "" ;;
    k92b) build k92b 053e2a9 "" ;;
    k92c) build k92c 053e2a9 $x/gather-index-and-note215.patch ;;
    kpre93) build kpre93 93abe6b "" ;;
    k93) build k93 4ab08ec "" ;;
    k217) build k217 c6f418e $x/roi-gradient-stages-knobs-note217.patch ;;
    kmerge) build kmerge c6f418e $x/roi-gradient-merged-knobs-note217.patch ;;
    kwords) build kwords a5c55db $x/roi-transpose-words-note218.patch ;;
    kbase219) build kbase219 1d24ca7 "" ;;
    ktiles) build ktiles cc059d2 $x/roi-transpose-tiles-knob-note219.patch ;;
    kinplace) build kinplace 45687d1 "" ;;
    kown) build kown f776668 "" ;;
    kconv) build kconv f776668 $x/f16-integer-unpack-note221.patch ;;
    kwords2) build kwords2 37fbfc9 "" ;;
    kbase96) build kbase96 45143d7 "" ;;
    kpairs96) build kpairs96 0bcaa55 "" ;;
    kexp96) build kexp96 27bff7a $x/roi-align1-rows-channels-knobs-session96.patch ;;
    krule97) build krule97 6c8410f $x/roi-align1-rows-spread-knobs-session97.patch ;;
    khead97) build khead97 bbb986c "" ;;
    kbins97) build kbins97 e684d15 $x/roi-whole-bins-channels-knob-session97.patch ;;
    krule98) build krule98 cfa63d7 "" ;;
    krule98b) build krule98b a3add68 "" ;;
    kpad98) build kpad98 1d8ac29 "$x/roi-align1-rows-padded-session98.patch $x/roi-align1-rows-adaptive-knobs-session98.patch" ;;
    kknob98) build kknob98 1d8ac29 $x/roi-align1-rows-adaptive-knobs-session98.patch ;;
    k214) build k214 HEAD $x/resample-shapes-knobs-note214.patch ;;
    klast4) build klast4 HEAD $x/roi-gather-last-part-unrolled-note210.patch ;;
    kform) build kform a5a2706 $x/roi-gather-lines-place-form-note206.patch ;;
    khoist) build khoist a5a2706 $x/roi-gather-lines-place-hoist-note206.patch ;;
    kboth) build kboth a5a2706 "$x/roi-gather-lines-place-form-note206.patch $x/roi-gather-lines-place-hoist-note206.patch" ;;
    *) echo "unknown kit $kit" >&2; exit 1 ;;
    esac
done
du -sh .gl
