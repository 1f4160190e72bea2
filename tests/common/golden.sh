# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Golden-transcript harness shared by tests/install/run.sh and
# tests/xnbctl/run.sh.  A harness defines its cases as t_<name>
# functions listed in CASES ("name  description" rows), a case writes
# its transcript to $T and ends with `expect`; golden_main runs them.
#
# In expect's here-document a line "@NAME ARG" stands for the lines
# that the harness's function g_NAME prints given ARG (the rest of the
# line, one argument), so that a block many transcripts share is
# written once.

# expect: the transcript must be the here-document on stdin, its @
# lines expanded; a harness's expect_more, where defined, must hold too.
expect() {
	local l
	while IFS= read -r l; do
		if [[ $l =~ ^@([a-z_]+)\ ?(.*)$ ]]; then
			"g_${BASH_REMATCH[1]}" "${BASH_REMATCH[2]}"
		else
			printf '%s\n' "$l"
		fi
	done > "$R.expected"
	if ! diff -u "$R.expected" "$T" > "$R.diff"; then
		sed 's/^/    /' "$R.diff"
		return 1
	fi
	if declare -F expect_more > /dev/null; then
		expect_more
	fi
}

# golden_main WORK [CASE...]: run all cases, or those named, each in a
# subshell with its own R (a fresh directory under WORK) and T (an empty
# transcript), after the harness's case_env NAME where defined; a PASS
# or FAIL line each, a count; fails if one did.
golden_main() {
	local work=$1 row name pass=0 fail=0
	shift
	for row in "${CASES[@]}"; do
		name=${row%% *}
		if [ $# -gt 0 ]; then
			case " $* " in *" $name "*) ;; *) continue ;; esac
		fi
		R=$work/$name T=$work/$name.transcript
		if declare -F case_env > /dev/null; then
			case_env "$name"
		fi
		mkdir -p "$R"
		: > "$T"
		if ("t_$name"); then
			pass=$((pass + 1))
			echo "PASS $row"
		else
			fail=$((fail + 1))
			echo "FAIL $row"
		fi
	done
	echo "$pass passed, $fail failed"
	[ $fail -eq 0 ]
}
