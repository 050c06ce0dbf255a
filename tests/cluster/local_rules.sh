# shellcheck shell=bash
# Sourced by the SLURM tests. local_rules_not_declared SNAKEMAKE_LOG: the names of the rules that
# ran on the login host ("localrule NAME:" in Snakemake's output under a cluster executor) but are
# not in the Snakefile's `localrules:` list; prints nothing when every one is declared.
local_rules_not_declared() {
  local snakefile declared
  snakefile=$(dirname "${BASH_SOURCE[0]}")/../../Snakefile
  declared=$(sed -n '/^localrules:/,/^$/p' "$snakefile" | grep -oE '^ +[a-z_]+' | tr -d ' ')
  [ -n "$declared" ] || { echo "(no localrules list in $snakefile)"; return; }
  grep -oE '^localrule [a-z_]+:' "$1" | sed 's/^localrule //; s/:$//' | sort -u | while read -r rule; do
    grep -qx "$rule" <<< "$declared" || echo "$rule"
  done | paste -sd' '
}
