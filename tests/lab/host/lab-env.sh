# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The lab flavour and its cache, sourced by the lab scripts: one cache per
# flavour (LAB_DIST), the default one for bookworm, where the trixie build
# root also lives.  An explicit LAB_CACHE wins.
LAB_DIST=${LAB_DIST:-bookworm}
[ "$LAB_DIST" = bookworm ] || LAB_CACHE=${LAB_CACHE:-/var/cache/xnb-lab-$LAB_DIST}
LAB_CACHE=${LAB_CACHE:-/var/cache/xnb-lab}
