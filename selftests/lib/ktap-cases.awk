# SPDX-License-Identifier: GPL-2.0
#
# Turn a KUnit suite's KTAP results (/sys/kernel/debug/kunit/SUITE/results)
# into one line per test case: "PASS name", "FAIL name" or "SKIP name".
# Cases are the result lines one level (4 spaces) below the suite's.

/^    (not )?ok [0-9]+ / {
	line = $0
	sub(/^    /, "", line)
	status = (line ~ /^not ok/) ? "FAIL" : "PASS"
	if (line ~ /# *SKIP/)
		status = "SKIP"
	sub(/^(not )?ok [0-9]+ (- )?/, "", line)
	sub(/ *#.*$/, "", line)
	print status, line
	cases++
}

END {
	if (!cases)
		print "FAIL no-test-cases-in-ktap"
}
