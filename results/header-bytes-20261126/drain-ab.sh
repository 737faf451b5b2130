#!/bin/bash
# Drains alternated between main 1cd5bba (built in the worktree /work/exp) and the header change
# (/work/main): the A/B script of ../pre-encode-overlap-20261126/, its figures written here.
# ROUNDS="1 2 3" for the three pairs of the README.
OUT=$(cd "$(dirname "$0")" && pwd) exec "$(dirname "$0")/../pre-encode-overlap-20261126/drain-ab.sh"
