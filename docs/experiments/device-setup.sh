#!/bin/bash
# Sourced by the session 88-89 device scripts: the Vulkan loader and libglvnd from .gl's Debian packages, each kit's
# dmlvk-bench unpacked where it was carried xz-compressed (to fit the 64 MiB carry), one pipeline cache for all,
# .gl/kit.sh running .gl/$KIT/dmlvk-bench (for tools/bench_variants.py over several builds), and the GPU's name.
for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
for x in .gl/k*/dmlvk-bench.xz; do [ -e "$x" ] || continue; [ -e "${x%.xz}" ] || { python3 -c 'import lzma, sys; open(sys.argv[1][:-3], "wb").write(lzma.open(sys.argv[1]).read())' "$x" && chmod +x "${x%.xz}"; }; done
export DMLVK_CACHE_DIR=/tmp/dmlvk-cache
printf '#!/bin/sh\nexec .gl/$KIT/dmlvk-bench "$@"\n' > .gl/kit.sh; chmod +x .gl/kit.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
