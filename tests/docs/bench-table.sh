#!/bin/sh
# make bench's tables: the ratio is reference / ours, each target gets the
# right pass/FAIL mark (on our figure or, with an x, on the ratio), a
# missing figure is "n/a", never a pass; and no bench script carries a
# reference figure typed in rather than measured in the run.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/bench/lib.sh"
trap 'rm -rf "$T" "$B"' EXIT

expect_eq "ratio 30/10" 3.00 "$(ratio 30 10)"
expect_eq "ratio with an absent reference" - "$(ratio absent 10)"
expect_eq "ratio with a missing figure" - "$(ratio 30 "")"
expect_eq "< met" "ok <3" "$(target_mark 1.2 - "<3")"
expect_eq "< missed" "FAIL <3" "$(target_mark 3 - "<3")"
expect_eq "<= met at the limit" "ok <=650" "$(target_mark 650 - "<=650")"
expect_eq ">=x on the ratio, met" "ok >=3x" "$(target_mark 11 3.10 ">=3x")"
expect_eq ">=x on the ratio, missed" "FAIL >=3x" "$(target_mark 11 2.63 ">=3x")"
expect_eq ">=x without a reference" "n/a >=10x" "$(target_mark 34 - ">=10x")"
expect_eq "a target on a figure not measured" "n/a <1.5" "$(target_mark "" - "<1.5")"
expect_eq "no target" - "$(target_mark 1 2 "")"
expect_eq "the summary counts every mark" \
	"targets: 3 ok, 2 FAIL, 2 not measured" "$(target_summary)"
line=$(row "probeFire" 1.5 6 ns "<3")
case $line in
*" 4.00  ok <3") ;;
*) fail "row: ratio and mark missing in: $line" ;;
esac
header "t" "ref" | grep -q 'ratio = ref / sdtkit: higher is better' ||
	fail "the table header has no legend"

# Reference figures are measured, not typed in: no REF_X=NUMBER and no
# figures "from issue N" in any bench script.
typed=$(grep -nE '(REF_[A-Z0-9_]*=[0-9]|from issue|\(issue\))' \
	"$top_srcdir"/bench/*.sh || true)
[ -z "$typed" ] || fail "reference figures typed into the bench: $typed"
