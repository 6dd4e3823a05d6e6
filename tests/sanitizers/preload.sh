#!/bin/sh
# meson test --wrapper for the sanitized runs: the preload (sanitizer runtime, driver) reaches the
# tests only, not meson itself.
LD_PRELOAD=$DMLVK_SANITIZER_PRELOAD exec "$@"
