# SPDX-License-Identifier: GPL-2.0
#
# Turn a KUnit suite's KTAP results (/sys/kernel/debug/kunit/SUITE/results)
# into one line per test case: "PASS name", "FAIL name" or "SKIP name why".
# Cases are the result lines one level (4 spaces) below the suite's.

/^    (not )?ok [0-9]+ / {
	line = $0
	sub(/^    /, "", line)
	status = (line ~ /^not ok/) ? "FAIL" : "PASS"
	why = ""
	if (line ~ /# *SKIP/) {
		status = "SKIP"
		why = line
		sub(/^.*# *SKIP */, " ", why)
	}
	sub(/^(not )?ok [0-9]+ (- )?/, "", line)
	sub(/ *#.*$/, "", line)
	print status, line why
	cases++
}

END {
	if (!cases)
		print "FAIL no-test-cases-in-ktap"
}
